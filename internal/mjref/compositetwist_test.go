package mjref

import (
	"math"
	"strings"
	"testing"
)

// twistRope is a <composite> rope, loop or cloth (TYPE, COUNT, its root
// body ROOT) whose bodies carry MuJoCo's twist and stretch joints besides
// their two bending hinges: each body's four joints are one compound
// joint, the twist hinge and the stretch slide held at 0 by joint
// equalities with the composite's solreffix and solimpfix
// (user_composite.cc, AddRopeBody, AddClothBody).
const twistRope = `<mujoco><option timestep="0.002" gravity="0 0 -9.81"/>
<worldbody>
  <body name="ROOT" pos="0 0 1"><freejoint/>
    <composite type="TYPE" count="COUNT" spacing="0.05" prefix="R">
      <joint kind="main" damping="0.005"/>
      <joint kind="twist" damping="0.01" stiffness="0.1" solreffix="0.02 1" solimpfix="0.9 0.95 0.001 0.5 2"/>
      <joint kind="stretch" damping="0.02" stiffness="2" solreffix="0.01 0.8"/>
      <geom type="capsule" size=".01 .015" mass="0.01"/>
    </composite>
  </body>
</worldbody></mujoco>`

// TestCompositeTwistStretchMuJoCo: a composite rope, loop and cloth (5 × 5,
// its rows tied by tendon equalities) with twist and stretch joints (compound joints of four parts, joint equalities on
// two of them) load as MuJoCo 2.2.2 expands them (nq, nv) and follow it
// over 300 steps from the initial state and from a perturbed one (every
// joint part moved and given a velocity): qpos to 1e-9.
func TestCompositeTwistStretchMuJoCo(t *testing.T) {
	exe := tool(t)
	for _, k := range []struct{ typ, count, root string }{{"rope", "8 1 1", "RB4"}, {"loop", "8 1 1", "RB4"}, {"cloth", "5 5 1", "RB2_2"}} {
		typ := k.typ
		path := writeModel(t, strings.NewReplacer("TYPE", typ, "COUNT", k.count, "ROOT", k.root).Replace(twistRope))
		init := run(t, path, Options{Steps: 0})
		q, v := append([]float64(nil), init.Steps[0].QPos...), make([]float64, init.NV)
		for i := 7; i < len(q); i++ {
			q[i] += 0.02 * math.Sin(1.3*float64(i))
		}
		for i := range v {
			v[i] = 0.5 * math.Cos(0.7*float64(i))
		}
		for _, c := range []struct {
			name string
			o    Options
		}{
			{"initial", Options{Steps: 300, Every: 1}},
			{"perturbed", Options{Steps: 300, Every: 1, QPos: q, QVel: v}},
		} {
			ref, _, worst, first := runFromState(t, exe, path, c.o)
			b, _, err := stiction(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.Model.NQ != ref.NQ || b.Model.NV != ref.NV {
				t.Errorf("%s: nq %d, nv %d; MuJoCo's %d, %d", typ, b.Model.NQ, b.Model.NV, ref.NQ, ref.NV)
			}
			t.Logf("%s, %s state (nq %d, nv %d, %d couplers): max |Δqpos| %.3g over %d steps", typ, c.name, ref.NQ, ref.NV,
				len(b.Config.Constraints.Couplers), worst, c.o.Steps)
			if worst > trajTol {
				t.Errorf("%s, %s: qpos differs from MuJoCo's by %.3g (first over 1e-9 at step %d)", typ, c.name, worst, first)
			}
		}
	}
}

// compoundEq is a chain of two bodies with two joints each (compound
// joints: a hinge and a slide, two hinges, some with ref) under gravity,
// whose parts are coupled by joint equalities: the second body's second
// hinge to the first body's slide (polycoef a0, a1), and the first body's
// second part held alone.
const compoundEq = `<mujoco><option timestep="0.002"/>
<worldbody>
  <body pos="0 0 1"><joint name="a0" type="hinge" axis="0 1 0" damping="0.02"/><joint name="a1" type="slide" axis="1 0 0" ref="0.05"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/>
    <body pos="0.3 0 0"><joint name="b0" type="hinge" axis="0 1 0"/><joint name="b1" type="hinge" axis="0 0 1" pos="0.1 0 0" ref="0.2"/>
      <geom type="capsule" fromto="0 0 0 0.25 0.05 0" size="0.02" mass="0.6"/></body></body>
</worldbody>
<equality>
  <joint joint1="b1" joint2="a1" polycoef="0.1 -2 0 0 0" solref="0.05 1"/>
  <joint joint1="a1" polycoef="0.02 1 0 0 0" solref="0.1 0.5"/>
</equality></mujoco>`

// TestCompoundJointEqualityMuJoCo: joint equalities on parts of compound
// joints (over two parts, and one part alone, with refs) follow MuJoCo
// 2.2.2 over 300 steps from the initial state and a perturbed one: qpos
// to 1e-9.
func TestCompoundJointEqualityMuJoCo(t *testing.T) {
	exe := tool(t)
	path := writeModel(t, compoundEq)
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"initial", Options{Steps: 300, Every: 1}},
		{"perturbed", Options{Steps: 300, Every: 1, QPos: []float64{0.3, 0.1, -0.4, 0.5}, QVel: []float64{1, -0.5, 2, -3}}},
	} {
		_, _, worst, first := runFromState(t, exe, path, c.o)
		t.Logf("%s state: max |Δqpos| %.3g over %d steps", c.name, worst, c.o.Steps)
		if worst > trajTol {
			t.Errorf("%s: qpos differs from MuJoCo's by %.3g (first over 1e-9 at step %d)", c.name, worst, first)
		}
	}
}
