package sim

import (
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/spatial"
)

// mujocoBoxBox appends to out the contacts of boxes g1 and g2 (g1 the
// lower geometry index, as MuJoCo orders a pair of one type) from MuJoCo
// 2.2.2's mjc_BoxBox (mjccd.BoxBox, margin 0 as mujocoConvex's pairs
// have), in MuJoCo's order, each with that order as Feature; the normal
// points from g1 to g2. As for a plane and a box (mujocoPlaneBox), when
// the boxes do not touch it gives instead the contacts within slack (Phi
// > 0, kept by the narrow phase only as speculative pairs), of which it
// keeps only the gaps (gapsOnly): with a positive margin mjc_BoxBox can
// return a deep contact where margin 0 finds none (dm_control's stacker,
// two boxes turned about the same axis 2 mm apart: dist −0.047 with margin
// 0.0052, TestStackerBoxBoxMuJoCo).
func mujocoBoxBox(g1, g2 *mjccd.Geom, slack float64, out []geometry.Contact) []geometry.Contact {
	var buf [mjccd.MaxBoxBox]mjccd.Contact
	hits := mjccd.BoxBox(g1, g2, 0, buf[:0])
	if len(hits) == 0 && slack > 0 {
		hits = gapsOnly(mjccd.BoxBox(g1, g2, slack, buf[:0]))
	}
	for k, h := range hits {
		out = append(out, geometry.Contact{Point: spatial.Vec3(h.Pos), Normal: spatial.Vec3(h.Normal), Phi: h.Dist, Feature: uint32(k)})
	}
	return out
}

// mujocoRoundBox appends to out the contacts of sphere or capsule g1
// and box g2 from MuJoCo 2.2.2's mjc_SphereBox or mjc_CapsuleBox
// (mjccd.SphereBox, mjccd.CapsuleBox; margin 0, else within slack as
// mujocoBoxBox, gaps only), each with its order as Feature; flip says the box is the
// pair's A, whose normal then points from the box to g1.
func mujocoRoundBox(g1, g2 *mjccd.Geom, flip bool, slack float64, out []geometry.Contact) []geometry.Contact {
	var buf [mjccd.MaxCapsuleBox]mjccd.Contact
	hits := roundBox(g1, g2, 0, buf[:0])
	if len(hits) == 0 && slack > 0 {
		hits = gapsOnly(roundBox(g1, g2, slack, buf[:0]))
	}
	for k, h := range hits {
		n := spatial.Vec3(h.Normal)
		if flip {
			n = n.Scale(-1)
		}
		out = append(out, geometry.Contact{Point: spatial.Vec3(h.Pos), Normal: n, Phi: h.Dist, Feature: uint32(k)})
	}
	return out
}

// roundBox is mjccd.CapsuleBox for a capsule g1, else mjccd.SphereBox
// (called directly, so that out stays on the caller's stack).
func roundBox(g1, g2 *mjccd.Geom, margin float64, out []mjccd.Contact) []mjccd.Contact {
	if g1.Type == mjccd.Capsule {
		return mjccd.CapsuleBox(g1, g2, margin, out)
	}
	return mjccd.SphereBox(g1, g2, margin, out)
}

// gapsOnly drops from hits, found with a positive margin after margin 0
// found none, those that are not gaps (Dist ≤ 0): margin 0 has shown that
// the geoms do not touch, so such a hit is an artefact of the margin
// (mujocoBoxBox), which would enter the solver as a penetration MuJoCo
// does not have. It filters in place and keeps the order.
func gapsOnly(hits []mjccd.Contact) []mjccd.Contact {
	n := 0
	for _, h := range hits {
		if h.Dist > 0 {
			hits[n] = h
			n++
		}
	}
	return hits[:n]
}
