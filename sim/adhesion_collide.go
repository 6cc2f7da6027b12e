package sim

import (
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/geometry/mjccd"
)

// mujocoMargin appends to out the contacts of boxes, or of a sphere or
// capsule g1 and a box g2, whose larger geom margin m is positive and
// whose geoms hold no standoff (margin ≤ gap: MuJoCo's contacts in the
// margin are no constraint rows, but its body transmission counts them,
// tendon.BodyTransmission): MuJoCo 2.2.2's mjc_BoxBox, mjc_SphereBox or
// mjc_CapsuleBox called with m, as mj_collideGeoms calls them, so the
// contacts within m are MuJoCo's. (Called with the narrow phase's slack
// instead, mjc_BoxBox gives contacts of separated boxes MuJoCo does not
// have, at half their distance: active_adhesion.xml's pad 15.6 mm above
// its box at dist 7.8 mm, within the pad's margin 10 mm.) Without a
// contact within m, the speculative gaps within slack are kept only
// beyond m, where no body transmission counts them (mujocoBoxBox). It
// reports false for other pairs.
func mujocoMargin(g1, g2 *mjccd.Geom, flip bool, m, slack float64, out []geometry.Contact) ([]geometry.Contact, bool) {
	var buf [mjccd.MaxBoxBox]mjccd.Contact
	collide := func(margin float64) []mjccd.Contact {
		if g1.Type == mjccd.Box {
			return mjccd.BoxBox(g1, g2, margin, buf[:0])
		}
		return roundBox(g1, g2, margin, buf[:0])
	}
	switch {
	case g1.Type == mjccd.Box && g2.Type == mjccd.Box:
	case (g1.Type == mjccd.Sphere || g1.Type == mjccd.Capsule) && g2.Type == mjccd.Box:
	default:
		return out, false
	}
	hits := collide(m)
	if len(hits) == 0 && slack > m {
		hits = beyond(collide(slack), m)
	}
	return appendMJ(hits, flip, out), true
}

// beyond drops from hits those not farther apart than m, in place.
func beyond(hits []mjccd.Contact, m float64) []mjccd.Contact {
	n := 0
	for _, h := range hits {
		if h.Dist >= m {
			hits[n] = h
			n++
		}
	}
	return hits[:n]
}
