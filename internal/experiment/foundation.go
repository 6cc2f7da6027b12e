package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/drumwright"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// FoundationCase is one row of Drumwright's Table 2: a rigid cube (s = 1 m, 8 kg/m³) at
// rest on an undeformed elastic foundation of depth 1 m, N×N elements of
// modulus E and damping 1 N·s/m, frictionless, loaded by Load downward at
// the cube-frame point s/2 (cos 10t, sin 10t, 1), 1 s at h = 0.01 s.
type FoundationCase struct {
	Load, E            float64
	N                  int
	PaperAbs, PaperRel float64 // Table 2
	PaperTime          float64 // Table 1, the constraint-based approach, s
}

// Table2 lists the rows of Drumwright's Table 2 with the paper's errors
// (against ode45) and Table 1's time of the constraint-based approach.
var Table2 = []FoundationCase{
	{5, 1e7, 10, 2.96e-5, 2.65e-5, 0.331}, {5, 1e11, 10, 2.91e-7, 2.60e-7, 0.286},
	{5, 1e7, 30, 1.98e-5, 1.77e-5, 7.40}, {5, 1e11, 30, 2.71e-9, 2.42e-9, 8.23},
	{50, 1e7, 10, 0.813, 0.724, 0.332}, {50, 1e11, 10, 0.814, 0.728, 0.396},
	{50, 1e7, 30, 1.0e-2, 8.87e-3, 12.98}, {50, 1e11, 30, 1.0e-2, 8.95e-3, 26.00},
}

const foundationYAML = `name: foundation
dt: 0.01
duration: 1
materials:
  foundation: {stiffness: 1e9, dissipation: 0, friction: 0}
  cube: {stiffness: 1e9, dissipation: 0, friction: 0}
bodies:
  - name: ground
    fixed: true
    shape: {type: halfspace}
    material: foundation
  - name: cube
    shape: {type: box, size: [1, 1, 1]}
    material: cube
    density: 8
    pose: {position: [0, 0, 0.5]}
`

// rotatingLoad is the paper's rotating load.
type rotatingLoad struct {
	body    int
	f, half float64
	w       forces.BodyWrench
}

// Apply adds the load at the context's time.
func (e *rotatingLoad) Apply(c *forces.Context, out *forces.Output) {
	e.w = forces.BodyWrench{Body: e.body, Point: loadPoint(e.half, c.T), Force: spatial.Vec3{0, 0, -e.f}, Profile: forces.Profile{Offset: 1}}
	e.w.Apply(c, out)
}

// PotentialEnergy is 0: the load is not conservative.
func (e *rotatingLoad) PotentialEnergy(*forces.Context) float64 { return 0 }

func loadPoint(half, t float64) spatial.Vec3 {
	return spatial.Vec3{half * math.Cos(10*t), half * math.Sin(10*t), half}
}

// FoundationSim builds the simulator of case c at step h with solver sv
// (nil: Drumwright's) and returns it with the cube's body index.
func FoundationSim(c FoundationCase, h float64, sv solver.Solver) (*sim.Simulator, int, error) {
	sc, err := scene.Parse("foundation.yaml", []byte(foundationYAML), []string{"contact.beta=1e-6"})
	if err != nil {
		return nil, 0, err
	}
	b, err := scene.Build(sc)
	if err != nil {
		return nil, 0, err
	}
	ground, cube := b.Model.BodyByName("ground"), b.Model.BodyByName("cube")
	for _, gm := range b.Model.Geometries {
		if gm.Body == ground {
			b.Config.Materials[gm.Material].Foundation = &contact.Foundation{Modulus: c.E, Depth: 1, Elements: c.N, Damping: 1}
		}
	}
	b.Config.Forces = append(b.Config.Forces, &rotatingLoad{body: cube, f: c.Load, half: 0.5})
	b.Config.DT = h
	if sv == nil {
		sv = drumwright.New(drumwright.DefaultParams(h))
	}
	b.Config.Solver = sv
	s, err := sim.New(b.Model, b.State, b.Config)
	return s, cube, err
}

// FoundationRun simulates case c for 1 s at step h with solver sv (nil:
// Drumwright's) and returns the cube's final pose and the wall time.
func FoundationRun(c FoundationCase, h float64, sv solver.Solver) (spatial.Pose, time.Duration, error) {
	s, cube, err := FoundationSim(c, h, sv)
	if err != nil {
		return spatial.Pose{}, 0, err
	}
	start := time.Now()
	if _, err := Steps(s, int(math.Round(1/h))); err != nil {
		return spatial.Pose{}, 0, fmt.Errorf("experiment: foundation: %w", err)
	}
	return s.Model.BodyPose(s.State, cube), time.Since(start), nil
}

// FoundationTruth returns the reference final pose: the Dormand–Prince
// integration of the continuous model for E ≤ 1e7, SAP at h = 1e-4 on the
// same contact model above (whose elements ring at 1e5 rad/s).
func FoundationTruth(c FoundationCase) (spatial.Pose, error) {
	if c.E <= 1e7 {
		return FoundationReference(c, 9.81), nil
	}
	x, _, err := FoundationRun(c, 1e-4, sap.New(sap.DefaultParams()))
	return x, err
}

// PoseError returns ‖(x − x_ref, q − q_ref)‖ (quaternions sign-aligned)
// and the same relative to ‖(x_ref, q_ref)‖.
func PoseError(x, ref spatial.Pose) (abs, rel float64) {
	q, r := x.R, ref.R
	if q.W*r.W+q.X*r.X+q.Y*r.Y+q.Z*r.Z < 0 {
		q = q.Scale(-1)
	}
	d := x.P.Sub(ref.P)
	dq := [4]float64{q.W - r.W, q.X - r.X, q.Y - r.Y, q.Z - r.Z}
	abs = math.Sqrt(d.Dot(d) + dq[0]*dq[0] + dq[1]*dq[1] + dq[2]*dq[2] + dq[3]*dq[3])
	return abs, abs / math.Sqrt(ref.P.Dot(ref.P)+1)
}

// FoundationReference integrates the continuous model of a FoundationCase
// for 1 s from rest with the undeformed foundation (cube centre at 0.5 m)
// by the Dormand–Prince 5(4) pair with error control (relative 1e-8,
// absolute 1e-14; the final pose moves by 5e-10 at 1e-10 for the 50 N,
// 100-element case): state (x, q, v, ω) in the world frame, the cube's
// inertia m s²/6 isotropic (so ω̇ = τ/I), every element centre r_k of the
// bottom face a spring of K = E a/depth and damping B = 1 with force
// max(0, −Kφ − Bφ̇) along +z while φ = z_k < 0. It returns the final pose.
func FoundationReference(c FoundationCase, g float64) spatial.Pose {
	const s, rho = 1.0, 8.0
	m := rho * s * s * s
	in := m * s * s / 6
	n := c.N
	k := c.E * (s * s / float64(n*n)) / 1
	pts := make([]spatial.Vec3, 0, n*n)
	for i := range n {
		for j := range n {
			pts = append(pts, spatial.Vec3{s * ((float64(i)+0.5)/float64(n) - 0.5), s * ((float64(j)+0.5)/float64(n) - 0.5), -s / 2})
		}
	}
	f := func(t float64, y, dy []float64) {
		x := spatial.Vec3{y[0], y[1], y[2]}
		q := spatial.Quat{W: y[3], X: y[4], Y: y[5], Z: y[6]}
		qn := q.Normalize()
		v := spatial.Vec3{y[7], y[8], y[9]}
		w := spatial.Vec3{y[10], y[11], y[12]}
		force := spatial.Vec3{0, 0, -m*g - c.Load}
		arm := qn.Rotate(loadPoint(s/2, t))
		torque := arm.Cross(spatial.Vec3{0, 0, -c.Load})
		for _, r := range pts {
			rw := qn.Rotate(r)
			phi := x[2] + rw[2]
			if phi >= 0 {
				continue
			}
			dphi := v[2] + w.Cross(rw)[2]
			fn := math.Max(0, -k*phi-dphi)
			force[2] += fn
			torque = torque.Add(rw.Cross(spatial.Vec3{0, 0, fn}))
		}
		dq := spatial.Quat{X: w[0], Y: w[1], Z: w[2]}.Mul(q).Scale(0.5)
		copy(dy, []float64{v[0], v[1], v[2], dq.W, dq.X, dq.Y, dq.Z,
			force[0] / m, force[1] / m, force[2] / m, torque[0] / in, torque[1] / in, torque[2] / in})
	}
	y := []float64{0, 0, s / 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	dopri(f, y, 0, 1, 1e-8, 1e-14)
	q := spatial.Quat{W: y[3], X: y[4], Y: y[5], Z: y[6]}.Normalize()
	return spatial.Pose{R: q, P: spatial.Vec3{y[0], y[1], y[2]}}
}

// dopri integrates y' = f(t, y) from t0 to t1 in place by the
// Dormand–Prince 5(4) pair (FSAL, local extrapolation) with the mixed
// error norm max_i |e_i|/(atol + rtol max(|y_i|, |y_i,new|)).
func dopri(f func(t float64, y, dy []float64), y []float64, t0, t1, rtol, atol float64) {
	a := [7][6]float64{
		{},
		{1.0 / 5},
		{3.0 / 40, 9.0 / 40},
		{44.0 / 45, -56.0 / 15, 32.0 / 9},
		{19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
		{9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
		{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
	}
	cs := [7]float64{0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1}
	b5 := [7]float64{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0}
	b4 := [7]float64{5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40}
	n := len(y)
	var kk [7][]float64
	for i := range kk {
		kk[i] = make([]float64, n)
	}
	yt, yn := make([]float64, n), make([]float64, n)
	t, h := t0, 1e-6
	f(t, y, kk[0])
	for t < t1 {
		h = math.Min(h, t1-t)
		for st := 1; st < 7; st++ {
			for i := range n {
				acc := y[i]
				for j := range st {
					acc += h * a[st][j] * kk[j][i]
				}
				yt[i] = acc
			}
			f(t+cs[st]*h, yt, kk[st])
		}
		errn := 0.0
		for i := range n {
			y5, e := y[i], 0.0
			for j := range 7 {
				y5 += h * b5[j] * kk[j][i]
				e += h * (b5[j] - b4[j]) * kk[j][i]
			}
			yn[i] = y5
			errn = math.Max(errn, math.Abs(e)/(atol+rtol*math.Max(math.Abs(y[i]), math.Abs(y5))))
		}
		if errn <= 1 {
			t += h
			copy(y, yn)
			copy(kk[0], kk[6]) // FSAL: stage 7 was evaluated at (t + h, y5)
		}
		h *= math.Min(5, math.Max(0.2, 0.9*math.Pow(math.Max(errn, 1e-300), -0.2)))
	}
}
