package experiment

import (
	"math"
)

// RestingRun compares a sphere resting on the ground (scene drop, 3 s) with
// Bridson–Marino and with symplectic Euler.
type RestingRun struct {
	Penetration, PenetrationRef float64 // −φ of the last step, m
	VZ                          float64 // the sphere's vertical velocity after the last step, m/s
	HalfKick                    float64 // g δt/2, m/s
}

// BridsonResting runs the drop scene for 300 steps with both schemes.
func BridsonResting() (RestingRun, error) {
	var r RestingRun
	for i, sc := range []string{"symplectic-euler", "bridson-marino"} {
		s, err := Load("drop", "scheme="+sc)
		if err != nil {
			return r, err
		}
		sts, err := Steps(s, 300)
		if err != nil {
			return r, err
		}
		pen := sts[len(sts)-1].MaxPenetration
		if i == 0 {
			r.PenetrationRef = pen
			continue
		}
		r.Penetration, r.VZ = pen, s.State.V[len(s.State.V)-1]
		r.HalfKick = -s.Model.Gravity[2] * s.Config().DT / 2
	}
	return r, nil
}

// SettleRun is what Settle measured.
type SettleRun struct {
	Steps  int     // steps taken with a converged solve
	LateKE float64 // largest kinetic energy over the last third, J
}

// Settle runs n steps of a scene with a scheme.
func Settle(name, scheme string, n int) (SettleRun, error) {
	s, err := Load(name, "scheme="+scheme)
	if err != nil {
		return SettleRun{}, err
	}
	sts, err := Steps(s, n)
	r := SettleRun{Steps: len(sts)}
	for _, st := range sts[len(sts)*2/3:] {
		r.LateKE = math.Max(r.LateKE, st.KineticEnergy)
	}
	if err != nil {
		return r, err
	}
	return r, nil
}
