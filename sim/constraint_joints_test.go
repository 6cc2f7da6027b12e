package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// TestConeLimitRest: an inverted pendulum (1 kg point mass 1 m above a
// ball joint) tipped by 0.3 rad about x falls against a cone limit of
// θmax = 0.5 rad and rests there: its rotation angle is θmax plus the
// near-rigid penetration β² τ δt²/(4π² I) (τ = m g L sin θ at rest, I =
// m L² + I_c about the tilt axis) to 1e-6 relative, its rotation axis stays
// x, and it never passes the cone by more than that plus one step's travel.
// δt = 1 ms and 10 ms.
func TestConeLimitRest(t *testing.T) {
	const thMax = 0.5
	for _, dt := range []float64{1e-3, 1e-2} {
		m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
		b := mustAdd(t, m, "bob", pointMass(1, spatial.Vec3{0, 0, 1}), multibody.Joint{Type: multibody.JointBall, Parent: -1,
			ParentFrame: at(0, 0, 1), ChildFrame: spatial.PoseIdentity()})
		s := m.NewState()
		q := spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, 0.3)
		s.Q[0], s.Q[1], s.Q[2], s.Q[3] = q.W, q.X, q.Y, q.Z
		set := &constraint.Set{Cones: []constraint.ConeLimit{{Name: "cone", Body: b, Angle: thMax}}}
		sm := newConstrained(t, m, s, set, dt, sim.SymplecticEuler)
		var pen, speed float64
		for range int(math.Round(3 / dt)) {
			step(t, sm)
			th, _ := constraint.BallAngle(sm.State.Q)
			pen = math.Max(pen, th-thMax)
			speed = math.Max(speed, math.Abs(sm.State.V[0]))
		}
		th, axis := constraint.BallAngle(sm.State.Q)
		inertia := 1 + 0.4e-4
		want := g * math.Sin(th) * dt * dt / (4 * math.Pi * math.Pi * inertia)
		r := report(t, sm, "cone")
		t.Logf("δt %g: rest angle %.9g (θmax + %.6g; estimate %.6g, rel. err %.2g), axis %v, max penetration %.3g, %v",
			dt, th, th-thMax, want, math.Abs(th-thMax-want)/want, axis, pen, r.State)
		if math.Abs(th-thMax-want) > 1e-6*want || math.Abs(axis[0]-1) > 1e-9 || pen > want+speed*dt || r.State != constraint.Active {
			t.Errorf("δt %g: penetration %g, want %g; axis %v; max %g", dt, th-thMax, want, axis, pen)
		}
	}
}

// TestCouplerGears: two flywheels on vertical revolute joints (I_a = 0.2,
// I_b = 0.5 kg·m², separate trees) coupled by q_a = ρ q_b + offset
// (ρ = −2.5, offset 0.1, initially violated by 0.1 rad), a motor torque τ
// on b: the coupler pulls the wheels onto the relation and they then
// accelerate as one geared inertia, q̈_b = τ/(I_b + ρ² I_a), to 1e-6
// relative, the coupler's error shrinking to the regularization's bound.
func TestCouplerGears(t *testing.T) {
	const ia, ib, rho, tau, dt = 0.2, 0.5, -2.5, 3.0, 1e-3
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	wheel := func(name string, i float64, x float64) int {
		in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{i, i, i})}
		return mustAdd(t, m, name, in, revolute(-1, at(x, 0, 1), spatial.Vec3{0, 0, 1}))
	}
	a, b := wheel("a", ia, 0), wheel("b", ib, 1)
	set := &constraint.Set{
		Couplers:  []constraint.Coupler{{Name: "gear", BodyI: a, BodyJ: b, Ratio: rho, Offset: 0.1}},
		Actuators: []constraint.Actuator{{Name: "motor", Type: constraint.Motor, Body: b, Target: constraint.Constant(tau)}},
	}
	sm := newConstrained(t, m, m.NewState(), set, dt, sim.SymplecticEuler)
	var vb1 float64
	const n = 2000
	for i := range n {
		step(t, sm)
		if i == n/2 {
			vb1 = sm.State.V[1]
		}
	}
	acc := (sm.State.V[1] - vb1) / (float64(n/2-1) * dt)
	want := tau / (ib + rho*rho*ia)
	r := report(t, sm, "gear")
	t.Logf("geared acceleration %.9g rad/s², closed form %.9g (rel. err %.2g); coupler error %.3g rad (allowed %.3g)", acc, want, math.Abs(acc-want)/want, r.Violation, r.Allowed)
	if math.Abs(acc-want) > 1e-6*want || r.Violation > 1.01*r.Allowed+1e-12 {
		t.Errorf("acceleration %g, want %g; coupler error %g (allowed %g)", acc, want, r.Violation, r.Allowed)
	}
}

// TestDistancePendulum: a free bob held at 1 m from a world point by a
// near-rigid distance constraint swings as a spherical pendulum: its
// distance stays within the regularization's bound plus the chord error
// of one step (½ v² δt²/L), and after 2 s its energy has changed by less
// than symplectic Euler's O(δt) error (2% of m g L at δt = 1 ms).
func TestDistancePendulum(t *testing.T) {
	const dt = 1e-3
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	bob, err := m.AddFreeBody("bob", pointMass(1, spatial.Vec3{}))
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewState()
	m.SetFreeBodyPose(s, bob, at(0.6, 0, 1.2))
	m.SetFreeBodyVelocity(s, bob, spatial.Vec3{}, spatial.Vec3{0, 1.5, 0})
	set := &constraint.Set{Distances: []constraint.Distance{{Name: "rod", BodyA: -1, PointA: spatial.Vec3{0, 0, 2}, BodyB: bob, Length: 1}}}
	sm := newConstrained(t, m, s, set, dt, sim.SymplecticEuler)
	e0 := m.KineticEnergy(s) + sm.PotentialEnergy()
	var ratio, allowed, chord, de float64
	for i := range 2000 {
		_, v := m.BodyVelocity(sm.State, bob)
		st := step(t, sm)
		r := report(t, sm, "rod")
		if i > 0 {
			ratio = math.Max(ratio, r.Violation/(allowed+chord))
		}
		allowed, chord = r.Allowed, 0.5*v.Dot(v)*dt*dt
		de = math.Max(de, math.Abs(st.KineticEnergy+st.PotentialEnergy-e0))
	}
	t.Logf("distance error ≤ %.3f× (regularization + chord), energy change max %.3g J", ratio, de)
	if ratio > 1.01 || de > 0.02*g {
		t.Errorf("distance error %g× its bound, energy change %g", ratio, de)
	}
}
