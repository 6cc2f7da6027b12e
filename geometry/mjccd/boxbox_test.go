package mjccd

import (
	"math"
	"testing"
)

// posed is a geom of type ty and size at pos, unturned.
func posed(ty Type, size, pos [3]float64) Geom {
	return Geom{Type: ty, Size: size, Pos: pos, Mat: [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}}
}

// TestBoxBoxSquareOn: a cube of half size 0.1 square on a larger box,
// overlapping by 0.02, gives mjc_BoxBox's 4 contacts at the cube's bottom
// corners (the repeated ones removed), each with normal +z (from the lower
// box to the cube), 2.2.2's halved distance −0.01 and its point midway
// through the overlap (z = 0.09, the overlap spanning 0.08 to 0.1).
func TestBoxBoxSquareOn(t *testing.T) {
	lower := posed(Box, [3]float64{0.3, 0.2, 0.1}, [3]float64{0, 0, 0})
	cube := posed(Box, [3]float64{0.1, 0.1, 0.1}, [3]float64{0.05, 0, 0.18})
	got := BoxBox(&lower, &cube, 0, nil)
	if len(got) != 4 {
		t.Fatalf("%d contacts, want 4: %+v", len(got), got)
	}
	seen := map[[2]float64]bool{}
	for _, c := range got {
		if math.Abs(c.Dist+0.01) > 1e-15 || c.Normal != [3]float64{0, 0, 1} || math.Abs(c.Pos[2]-0.09) > 1e-15 {
			t.Errorf("contact %+v: want dist −0.01, normal +z, z 0.09", c)
		}
		seen[[2]float64{math.Round((c.Pos[0] - 0.05) / 0.1), math.Round(c.Pos[1] / 0.1)}] = true
	}
	for _, k := range [][2]float64{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
		if !seen[k] {
			t.Errorf("no contact at corner %v: %+v", k, got)
		}
	}
	if apart := posed(Box, [3]float64{0.1, 0.1, 0.1}, [3]float64{0, 0, 0.21}); len(BoxBox(&lower, &apart, 0, nil)) != 0 {
		t.Error("boxes 0.01 apart touch")
	}
}

// TestCapsuleBoxLying: a capsule (radius 0.03, half length 0.08) lying
// along x on a box's top face, 0.005 into it, touches at both ends of its
// segment, each with normal −z (from the capsule to the box) and distance
// −0.005.
func TestCapsuleBoxLying(t *testing.T) {
	box := posed(Box, [3]float64{0.3, 0.2, 0.1}, [3]float64{0, 0, 0})
	c := posed(Capsule, [3]float64{0.03, 0.08, 0}, [3]float64{0.01, 0.02, 0.125})
	c.Mat = [9]float64{0, 0, 1, 0, 1, 0, -1, 0, 0} // the capsule's axis along x
	got := CapsuleBox(&c, &box, 0, nil)
	if len(got) != 2 {
		t.Fatalf("%d contacts, want 2: %+v", len(got), got)
	}
	xs := []float64{got[0].Pos[0], got[1].Pos[0]}
	for _, h := range got {
		if math.Abs(h.Dist+0.005) > 1e-15 || math.Abs(h.Normal[2]+1) > 1e-15 {
			t.Errorf("contact %+v: want dist −0.005, normal −z", h)
		}
	}
	if math.Abs(math.Abs(xs[0]-xs[1])-0.16) > 1e-12 {
		t.Errorf("contacts at x %v, want the segment's ends 0.16 apart", xs)
	}
}

// TestSphereBoxOverCorner: a sphere (radius 0.05) whose centre is 0.04
// from a box's corner along the diagonal touches it 0.01 deep, the normal
// along the diagonal into the box.
func TestSphereBoxOverCorner(t *testing.T) {
	box := posed(Box, [3]float64{0.3, 0.2, 0.1}, [3]float64{0, 0, 0})
	d := 0.04 / math.Sqrt(3)
	s := posed(Sphere, [3]float64{0.05}, [3]float64{0.3 + d, 0.2 + d, 0.1 + d})
	got := SphereBox(&s, &box, 0, nil)
	if len(got) != 1 || math.Abs(got[0].Dist+0.01) > 1e-15 {
		t.Fatalf("%+v: want one contact 0.01 deep", got)
	}
	for a := range 3 {
		if math.Abs(got[0].Normal[a]+1/math.Sqrt(3)) > 1e-15 {
			t.Errorf("normal %v, want −(1, 1, 1)/√3", got[0].Normal)
		}
	}
}
