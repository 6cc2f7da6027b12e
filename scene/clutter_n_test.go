package scene

import (
	"reflect"
	"testing"
)

// TestClutterNMatchesClutter: ClutterN(40, walls) has Clutter(10, walls)'s
// bodies, and ClutterN(n) has n free bodies that build.
func TestClutterNMatchesClutter(t *testing.T) {
	for _, walls := range []bool{true, false} {
		a, b := ClutterN(40, walls), Clutter(10, walls)
		if !reflect.DeepEqual(a.Bodies, b.Bodies) {
			t.Errorf("walls=%v: ClutterN(40) bodies differ from Clutter(10)", walls)
		}
		for _, n := range []int{10, 37, 160} {
			sc, err := LoadClutterN(n, walls, []string{"duration=1"})
			if err != nil {
				t.Fatalf("LoadClutterN(%d, %v): %v", n, walls, err)
			}
			free := 0
			for _, body := range sc.Bodies {
				if !body.Fixed {
					free++
				}
			}
			if free != n {
				t.Errorf("ClutterN(%d, %v) has %d free bodies", n, walls, free)
			}
			if _, err := Build(sc); err != nil {
				t.Errorf("ClutterN(%d, %v): %v", n, walls, err)
			}
		}
	}
}

// TestClutterCopies: ClutterCopies(k) is k translated copies of
// clutter-nowalls (40k free bodies, one ground), copy c at its grid offset.
func TestClutterCopies(t *testing.T) {
	base := Clutter(10, false)
	for _, k := range []int{1, 4, 5} {
		sc, err := LoadClutterCopies(k, []string{"duration=1"})
		if err != nil {
			t.Fatalf("LoadClutterCopies(%d): %v", k, err)
		}
		fixed, free := 0, 0
		for _, b := range sc.Bodies {
			if b.Fixed {
				fixed++
			} else {
				free++
			}
		}
		if fixed != 1 || free != 40*k {
			t.Fatalf("ClutterCopies(%d): %d fixed and %d free bodies, want 1 and %d", k, fixed, free, 40*k)
		}
		c := ClutterCopies(k)
		g := 1
		for g*g < k {
			g++
		}
		for i, b := range c.Bodies[1:] {
			copyIdx, src := i/40, base.Bodies[1+i%40]
			dx, dy := float64(copyIdx%g)*ClutterCopySpacing, float64(copyIdx/g)*ClutterCopySpacing
			p, q := *b.Pose.Position, *src.Pose.Position
			if p[0] != round6(q[0]+dx) || p[1] != round6(q[1]+dy) || p[2] != q[2] || *b.Pose.AxisAngle != *src.Pose.AxisAngle || b.Shape.Type != src.Shape.Type {
				t.Fatalf("ClutterCopies(%d) body %s: %v, want %s's %v moved by (%g, %g)", k, b.Name, p, src.Name, q, dx, dy)
			}
		}
		if _, err := Build(sc); err != nil {
			t.Errorf("ClutterCopies(%d): %v", k, err)
		}
	}
}
