package mjref

import (
	"math"
	"strings"
	"testing"
)

// pulleyModel hangs three bodies on one spatial tendon of three branches
// (MuJoCo's <pulley divisor>; none of MuJoCo 2.2.2's model/ files has a
// pulley): a slider on the first branch (divisor 1), a pendulum on the
// second (divisor 2) and a diagonal slider carried by the pendulum on the
// third (divisor 3), whose path wraps over a world cylinder (two trees: a
// tendon limit's bodies may span two trees, not three). The tendon is a spring–damper
// with a length range; DIVISOR2 and DIVISOR3 are the two divisors.
const pulleyModel = `<mujoco><option timestep="0.002" integrator="INTEGRATOR"/>
  <worldbody>
    <site name="top" pos="0 0 1"/><site name="top2" pos="0.3 0 1"/><site name="top3" pos="0.45 0 1.1"/>
    <geom name="drum" type="cylinder" size="0.05 0.02" pos="0.55 0 1" euler="90 0 0" contype="0" conaffinity="0"/>
    <body name="a" pos="0 0 0.5"><joint name="ja" type="slide" axis="0 0 1" damping="0.1"/>
      <geom type="sphere" size="0.05" mass="1" contype="0" conaffinity="0"/><site name="sa" pos="0 0 0.05"/></body>
    <body name="b" pos="0.3 0 0.5"><joint name="jb" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0" mass="0.5" contype="0" conaffinity="0"/><site name="sb" pos="0.2 0 0"/>
      <body name="c" pos="0.4 0 0.1"><joint name="jc" type="slide" axis="1 0 1"/>
        <geom type="sphere" size="0.04" mass="0.3" contype="0" conaffinity="0"/><site name="sc"/></body>
    </body>
  </worldbody>
  <tendon><spatial name="rope" stiffness="300" damping="2" springlength="0.6" limited="true" range="0 0.75">
    <site site="top"/><site site="sa"/>
    <pulley divisor="DIVISOR2"/><site site="top2"/><site site="sb"/>
    <pulley divisor="DIVISOR3"/><site site="top3"/><geom geom="drum"/><site site="sc"/>
  </spatial></tendon>
</mujoco>`

// TestPulleyMatchesMuJoCo: the three-branch pulley tendon (its spring,
// damping and length limit acting through L and G with the divisors) follows
// MuJoCo 2.2.2 to 1e-9 over 500 steps from rest and from a perturbed state,
// under mujoco-euler and rk4. With divisors 1 (the branches as plain
// segments) Stiction parts from MuJoCo's divisors 2 and 3 by more than
// 1e-3, so the comparison sees them.
func TestPulleyMatchesMuJoCo(t *testing.T) {
	const steps = 500
	for _, integ := range []string{"Euler", "RK4"} {
		t.Run(integ, func(t *testing.T) {
			xml := strings.NewReplacer("INTEGRATOR", integ, "DIVISOR2", "2", "DIVISOR3", "3").Replace(pulleyModel)
			path := writeModel(t, xml)
			if _, im, err := stiction(path); err != nil {
				t.Fatal(err)
			} else if len(im.Warnings) > 0 {
				t.Errorf("warnings: %v", im.Warnings)
			}
			mj := run(t, path, Options{Steps: steps, Every: 1})
			q := append([]float64(nil), mj.QInit...)
			v := make([]float64, mj.NV)
			for i := range q {
				q[i] += 0.05 * math.Sin(float64(i)+1)
				v[i] = 0.8 * math.Cos(1.3*float64(i)+0.2)
			}
			mjp := run(t, path, Options{Steps: steps, Every: 1, QPos: q, QVel: v})
			limits := limitStates(mj) + limitStates(mjp)
			_, mp := mappedModel(t, path, mj)
			worst, first, err := compareTrajectory(path, mj, nil, mp, steps)
			if err != nil {
				t.Fatal(err)
			}
			wp, firstp, err := compareTrajectory(path, mjp, mjp, mp, steps)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: max |Δqpos| over %d steps %.3g from rest, %.3g perturbed (MuJoCo's limit rows in %d states)", integ, steps, worst, wp, limits)
			if worst > trajTol || wp > trajTol {
				t.Errorf("%s: qpos %.3g (first over %g at step %d) and %.3g perturbed (step %d) from MuJoCo's", integ, worst, trajTol, first, wp, firstp)
			}
			plain := writeModel(t, strings.NewReplacer("INTEGRATOR", integ, "DIVISOR2", "1", "DIVISOR3", "1").Replace(pulleyModel))
			off, _, err := compareTrajectory(plain, mj, nil, mp, steps)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: with divisors 1, max |Δqpos| %.3g", integ, off)
			if off < 1e-3 {
				t.Errorf("%s: divisors 1 move qpos by only %.3g: the model does not exercise them", integ, off)
			}
		})
	}
}
