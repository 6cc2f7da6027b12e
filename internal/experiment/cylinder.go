package experiment

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/sim"
)

// The spring-cylinder of SAP §VI-B (the embedded scenes spring-cylinder and
// spring-cylinder-frictionless).
const (
	CylMass    = 0.5   // kg
	CylRadius  = 0.05  // m
	CylSpring  = 100.0 // ks, N/m
	CylX0      = 0.1   // initial stretch, m
	cylContact = 1e4   // contact stiffness k, N/m
	gravity    = 9.81  // m/s², the scenes' default
)

// CylinderOmega returns the oscillator's angular frequency: √(ks/m) without
// friction; rolling, √(ks/m_eff) with m_eff = m + I_o/r², where the model
// rolls on r = R − δ/2, δ = mg/(2k) the static penetration (the contact
// point sits midway through it).
func CylinderOmega(rolling bool) float64 {
	if !rolling {
		return math.Sqrt(CylSpring / CylMass)
	}
	r := CylRadius - CylMass*gravity/(2*cylContact)/2
	return math.Sqrt(CylSpring / (CylMass + 0.5*CylMass*CylRadius*CylRadius/(r*r)))
}

// SpringCylinder loads scene name ("spring-cylinder" or
// "spring-cylinder-frictionless") with a scheme, time step and further
// overrides.
func SpringCylinder(name, scheme string, dt float64, sets ...string) (*sim.Simulator, error) {
	return Load(name, append([]string{"scheme=" + scheme, fmt.Sprintf("dt=%g", dt)}, sets...)...)
}

// CylinderRun is what one spring-cylinder run measured, step by step.
type CylinderRun struct {
	X      []float64 // the cylinder's x after each step, m
	Energy []float64 // oscillator energy KE + PE − m g z0, starting with the initial ½ ks x0², J
}

// RunCylinder runs the spring-cylinder scene for n steps.
func RunCylinder(name, scheme string, dt float64, n int, sets ...string) (CylinderRun, error) {
	s, err := SpringCylinder(name, scheme, dt, sets...)
	if err != nil {
		return CylinderRun{}, err
	}
	b := s.Model.BodyByName("cylinder")
	pg0 := CylMass * gravity * s.Model.BodyPose(s.State, b).P[2]
	r := CylinderRun{Energy: []float64{0.5 * CylSpring * CylX0 * CylX0}}
	for range n {
		st, err := s.Step()
		if err != nil {
			return r, err
		}
		if !st.NewtonConverged {
			return r, fmt.Errorf("experiment: %s, %s, δt = %g: step %d: Newton iteration did not converge", name, scheme, dt, st.Step)
		}
		r.X = append(r.X, s.Model.BodyPose(s.State, b).P[0])
		r.Energy = append(r.Energy, st.KineticEnergy+st.PotentialEnergy-pg0)
	}
	return r, nil
}

// CylinderL2 runs the spring-cylinder for the given duration and returns
// the L2 error of x(t) against x0 cos(ω t) (SAP Fig. 7).
func CylinderL2(name, scheme string, dt, duration float64) (float64, error) {
	n := int(math.Round(duration / dt))
	r, err := RunCylinder(name, scheme, dt, n)
	if err != nil {
		return 0, err
	}
	w := CylinderOmega(name == "spring-cylinder")
	s := 0.0
	for i, x := range r.X {
		d := x - CylX0*math.Cos(w*dt*float64(i+1))
		s += d * d
	}
	return math.Sqrt(s / float64(n)), nil
}

// Order measures the L2 errors of CylinderL2 at each δt and the fitted
// slope of log error against log δt.
func Order(name, scheme string, dts []float64, duration float64) (errs []float64, slope float64, err error) {
	for _, dt := range dts {
		e, err := CylinderL2(name, scheme, dt, duration)
		if err != nil {
			return nil, 0, err
		}
		errs = append(errs, e)
	}
	return errs, LogSlope(dts, errs), nil
}

// PeakToPeak returns (max − min)/e[0] of an energy history.
func PeakToPeak(e []float64) float64 {
	lo, hi := MinMax(e)
	return (hi - lo) / e[0]
}
