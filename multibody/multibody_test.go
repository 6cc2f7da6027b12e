package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// randomBody returns a model with one free body of random inertia, and a
// state with random pose and velocity.
func randomBody(r *rand.Rand) (*Model, *State) {
	m := &Model{}
	d := spatial.Vec3{1 + r.Float64(), 1 + r.Float64(), 1 + r.Float64()}
	rot := spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	in := spatial.SpatialInertia{Mass: 0.5 + r.Float64(), Icom: spatial.RotateInertia(rot.RotMat(), spatial.Diag3(d))}
	if _, err := m.AddFreeBody("b", in); err != nil {
		panic(err)
	}
	s := m.NewState()
	q := spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	m.SetFreeBodyPose(s, 0, spatial.Pose{R: q, P: spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}})
	m.SetFreeBodyVelocity(s, 0, spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}, spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()})
	return m, s
}

// flow returns the pose of body 0 after moving with its current constant
// twist for time h (exact for constant ω and v).
func flow(m *Model, s *State, h float64) spatial.Pose {
	x := m.BodyPose(s, 0)
	w, v := m.BodyVelocity(s, 0)
	return spatial.Pose{R: spatial.QuatFromAxisAngle(w, w.Norm()*h).Mul(x.R), P: x.P.AddScaled(h, v)}
}

// TestPointJacobianMatchesFiniteDifferences: J v equals the central
// difference of the material point's world position along the motion.
func TestPointJacobianMatchesFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	const h = 1e-6
	for range 50 {
		m, s := randomBody(r)
		x := m.BodyPose(s, 0)
		pb := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()} // body-frame point
		p := x.Apply(pb)
		fd := flow(m, s, h).Apply(pb).Sub(flow(m, s, -h).Apply(pb)).Scale(1 / (2 * h))
		var J [18]float64
		if m.PointJacobian(s, 0, p, J[:]) != 0 {
			t.Fatal("wrong tree")
		}
		var jv spatial.Vec3
		for i := range 3 {
			for j := range 6 {
				jv[i] += J[6*i+j] * s.V[j]
			}
		}
		if d := jv.Sub(fd).Norm(); d > 1e-7*(1+fd.Norm()) {
			t.Fatalf("J v = %v, finite difference %v", jv, fd)
		}
		if d := m.PointVelocity(s, 0, p).Sub(jv).Norm(); d > 1e-12 {
			t.Fatalf("PointVelocity = %v, J v = %v", m.PointVelocity(s, 0, p), jv)
		}
	}
}

// TestIntegrateQ: one step of IntegrateQ agrees with the exact flow to
// second order in h and keeps the quaternion unit.
func TestIntegrateQ(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for range 20 {
		m, s := randomBody(r)
		var prev float64
		for k, h := range []float64{1e-2, 5e-3} {
			q := append([]float64(nil), s.Q...)
			m.IntegrateQ(s.Q, s.Q, s.V, h, q)
			got := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
			if math.Abs(got.Norm()-1) > 1e-15 {
				t.Fatalf("|q| = %v", got.Norm())
			}
			want := flow(m, s, h).R
			err := math.Min(got.Add(want.Scale(-1)).Norm(), got.Add(want).Norm())
			if k == 1 && err > prev/3 {
				t.Fatalf("error %v at h/2 vs %v at h: not second order locally", err, prev)
			}
			prev = err
		}
	}
}

// TestKineticEnergyRateIsPower: with no gravity, d(½vᵀMv)/dt along the
// dynamics M v̇ = −C(q, v) (gyroscopic only) is zero: the central difference
// of the kinetic energy along the flow vanishes to O(h²).
func TestKineticEnergyRateIsPower(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	const h = 1e-5
	for range 20 {
		m, s := randomBody(r)
		acc := func(st *State) []float64 {
			f := make([]float64, 6)
			m.BiasForces(st, f)
			var M [36]float64
			m.TreeMassMatrix(st, 0, M[:])
			iw := spatial.Mat3{{M[0], M[1], M[2]}, {M[6], M[7], M[8]}, {M[12], M[13], M[14]}}
			inv, _ := iw.Inverse()
			a := inv.MulVec(spatial.Vec3{f[0], f[1], f[2]})
			return []float64{a[0], a[1], a[2], f[3] / M[21], f[4] / M[28], f[5] / M[35]}
		}
		a := acc(s)
		at := func(dt float64) float64 {
			st := &State{Q: make([]float64, 7), V: make([]float64, 6)}
			for i := range 6 {
				st.V[i] = s.V[i] + dt*a[i]
			}
			x := flow(m, s, dt)
			m.SetFreeBodyPose(st, 0, x)
			return m.KineticEnergy(st)
		}
		ke := m.KineticEnergy(s)
		rate := (at(h) - at(-h)) / (2 * h)
		if math.Abs(rate) > 1e-6*ke {
			t.Fatalf("dKE/dt = %v with no external power (KE = %v)", rate, ke)
		}
	}
}

// TestMassMatrixAndEnergy: ½vᵀMv equals KineticEnergy; M is symmetric
// positive definite; gravity does work m g·v.
func TestMassMatrixAndEnergy(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for range 20 {
		m, s := randomBody(r)
		m.Gravity = spatial.Vec3{0, 0, -9.81}
		var M [36]float64
		m.TreeMassMatrix(s, 0, M[:])
		e := 0.0
		for i := range 6 {
			for j := range 6 {
				e += 0.5 * s.V[i] * M[6*i+j] * s.V[j]
				if math.Abs(M[6*i+j]-M[6*j+i]) > 1e-15 {
					t.Fatal("M not symmetric")
				}
			}
		}
		if math.Abs(e-m.KineticEnergy(s)) > 1e-12*e {
			t.Fatalf("½vᵀMv = %v, KineticEnergy = %v", e, m.KineticEnergy(s))
		}
		f := make([]float64, 6)
		m.BiasForces(s, f)
		mass := m.Bodies[0].Inertia.Mass
		if f[5] != -9.81*mass {
			t.Fatalf("gravity force %v, want %v", f[5], -9.81*mass)
		}
		if pe := m.PotentialEnergy(s); math.Abs(pe-mass*9.81*s.Q[6]) > 1e-12 {
			t.Fatalf("PE = %v, want m g z = %v", pe, mass*9.81*s.Q[6])
		}
	}
}

func TestModelErrors(t *testing.T) {
	m := &Model{}
	if _, err := m.AddFreeBody("bad", spatial.SpatialInertia{Mass: -1, Icom: spatial.Identity3()}); err == nil {
		t.Error("negative mass accepted")
	}
	if _, err := m.AddFreeBody("off", spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{1, 0, 0}, Icom: spatial.Identity3()}); err == nil {
		t.Error("com offset accepted for a free body")
	}
	if _, err := m.AddGeometry(3, sphereShape(), spatial.PoseIdentity(), 0); err == nil {
		t.Error("geometry on a missing body accepted")
	}
}
