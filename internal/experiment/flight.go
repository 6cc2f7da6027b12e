package experiment

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// Tumbler returns a simulator of a free rigid body in free flight under
// gravity: a 2 kg body with principal moments (0.1, 0.2, 0.3) kg·m², thrown
// at (1, 0, 3) m/s spinning at (1, 0.2, 3) rad/s, so that it tumbles about
// its unstable middle axis neighbourhood and its gyroscopic torque ω × Iω
// is not zero.
func Tumbler(sc sim.Scheme, dt float64) (*sim.Simulator, error) {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -gravity}}
	in := spatial.SpatialInertia{Mass: 2, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
	b, err := m.AddFreeBody("tumbler", in)
	if err != nil {
		return nil, fmt.Errorf("experiment: tumbler: %w", err)
	}
	s := m.NewState()
	m.SetFreeBodyPose(s, b, spatial.Pose{R: spatial.QuatFromAxisAngle(spatial.Vec3{1, 1, 0}, 0.3), P: spatial.Vec3{0, 0, 1}})
	copy(s.V, []float64{1, 0.2, 3, 1, 0, 3})
	cfg := sim.Config{DT: dt, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Scheme: sc}
	sm, err := sim.New(m, s, cfg)
	if err != nil {
		return nil, fmt.Errorf("experiment: tumbler: %w", err)
	}
	return sm, nil
}

// FlightState runs the tumbler to time T and returns its final q and v.
func FlightState(sc sim.Scheme, dt, T float64) (q, v []float64, err error) {
	s, err := Tumbler(sc, dt)
	if err != nil {
		return nil, nil, err
	}
	if _, err := Steps(s, int(math.Round(T/dt))); err != nil {
		return nil, nil, err
	}
	return s.State.Q, s.State.V, nil
}

// FlightOrder measures the error of the tumbler's final state at T (max
// norm over q and v, quaternion sign fixed) against a reference run with
// the midpoint rule at δt = refDT, for each δt, and the fitted order.
func FlightOrder(sc sim.Scheme, dts []float64, T, refDT float64) (errs []float64, slope float64, err error) {
	qr, vr, err := FlightState(sim.Midpoint, refDT, T)
	if err != nil {
		return nil, 0, err
	}
	for _, dt := range dts {
		q, v, err := FlightState(sc, dt, T)
		if err != nil {
			return nil, 0, err
		}
		errs = append(errs, stateDistance(q, v, qr, vr))
	}
	return errs, LogSlope(dts, errs), nil
}

// stateDistance is the max-norm distance of two free-body states.
func stateDistance(q, v, qr, vr []float64) float64 {
	sign := 1.0
	if q[0]*qr[0]+q[1]*qr[1]+q[2]*qr[2]+q[3]*qr[3] < 0 {
		sign = -1
	}
	d := 0.0
	for i := range q {
		s := 1.0
		if i < 4 {
			s = sign
		}
		d = math.Max(d, math.Abs(s*q[i]-qr[i]))
	}
	for i := range v {
		d = math.Max(d, math.Abs(v[i]-vr[i]))
	}
	return d
}

// SceneOrder runs scene name with each scheme and δt to time T and returns
// the max-norm error of the final (q, v) against the midpoint rule at
// δt = refDT, and the fitted order. The scene must have no quaternion
// joints (the error is taken component-wise).
func SceneOrder(name, scheme string, dts []float64, T, refDT float64) (errs []float64, slope float64, err error) {
	final := func(sc string, dt float64) ([]float64, []float64, error) {
		s, err := Load(name, "scheme="+sc, fmt.Sprintf("dt=%g", dt))
		if err != nil {
			return nil, nil, err
		}
		if _, err := Steps(s, int(math.Round(T/dt))); err != nil {
			return nil, nil, err
		}
		return s.State.Q, s.State.V, nil
	}
	qr, vr, err := final("midpoint", refDT)
	if err != nil {
		return nil, 0, err
	}
	for _, dt := range dts {
		q, v, err := final(scheme, dt)
		if err != nil {
			return nil, 0, err
		}
		d := 0.0
		for i := range q {
			d = math.Max(d, math.Abs(q[i]-qr[i]))
		}
		for i := range v {
			d = math.Max(d, math.Abs(v[i]-vr[i]))
		}
		errs = append(errs, d)
	}
	return errs, LogSlope(dts, errs), nil
}
