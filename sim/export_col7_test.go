package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// closingRef is closing as it was written before motionAt: each body's
// point velocity and spin read by pointVelocityRef and spinReachRef, the
// test a closure: the reference closing must match to the bit.
func (sim *Simulator) closingRef(a, b int, ra, rb float64, h *geometry.Contact) (keep, chained bool) {
	prm := &sim.cfg.Contact
	if !prm.Speculative {
		return false, false
	}
	dt := sim.cfg.DT
	va, vb := sim.pointVelocityRef(a, h.Point), sim.pointVelocityRef(b, h.Point)
	vn := h.Normal.Dot(vb.Sub(va))
	spin := 2 * (sim.spinReachRef(a, ra) + sim.spinReachRef(b, rb))
	within := func(u float64) bool {
		return h.Phi <= prm.Margin+min(prm.SpeculativeMax, (u+spin)*dt+sim.Model.Gravity.Norm()*dt*dt)
	}
	if within(max(0, -vn)) {
		return true, false
	}
	if within(max(h.Normal.Dot(va), -h.Normal.Dot(vb))) {
		return true, true
	}
	return false, false
}

func (sim *Simulator) spinReachRef(b int, r float64) float64 {
	if sim.Model.Bodies[b].Tree < 0 {
		return 0
	}
	w, _ := sim.ws.kin0.Velocity(b)
	return w.Norm() * r
}

func (sim *Simulator) pointVelocityRef(b int, p spatial.Vec3) spatial.Vec3 {
	if sim.Model.Bodies[b].Tree < 0 {
		return spatial.Vec3{}
	}
	w, v := sim.ws.kin0.Velocity(b)
	return v.Add(w.Cross(p.Sub(sim.ws.kin0.Pose(b).P)))
}

// ClosingMatchesRef tests closing against closingRef on n random points
// (positions about the bodies, unit and awkward normals, gaps about the
// speculative cap, reaches) between random bodies of s (the world among
// them) at s's current start-of-step kinematics, and returns how many
// points each kept (with the chained ones counted apart) or the first
// disagreement.
func ClosingMatchesRef(s *Simulator, seed uint64, n int) (kept, chained int, err error) {
	rng := rand.New(rand.NewPCG(seed, 157))
	nb := len(s.Model.Bodies)
	for k := range n {
		a, b := rng.IntN(nb), rng.IntN(nb)
		var h geometry.Contact
		for i := range 3 {
			h.Point[i] = rng.NormFloat64()
			h.Normal[i] = rng.NormFloat64()
		}
		if k%2 == 0 {
			h.Normal = h.Normal.Scale(1 / h.Normal.Norm())
		}
		h.Phi = s.cfg.Contact.Margin + math.Abs(rng.NormFloat64())*s.cfg.Contact.SpeculativeMax
		ra, rb := math.Abs(rng.NormFloat64()), math.Abs(rng.NormFloat64())
		if k%97 == 0 {
			h.Point[rng.IntN(3)] = []float64{math.NaN(), math.Inf(1), math.Copysign(0, -1)}[rng.IntN(3)]
		}
		k1, c1 := s.closing(a, b, ra, rb, &h)
		k2, c2 := s.closingRef(a, b, ra, rb, &h)
		if k1 != k2 || c1 != c2 {
			return kept, chained, fmt.Errorf("point %d (%d, %d, %+v): closing %v %v, the reference %v %v", k, a, b, h, k1, c1, k2, c2)
		}
		if k1 {
			kept++
		}
		if c1 {
			chained++
		}
	}
	return kept, chained, nil
}
