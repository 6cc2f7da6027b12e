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
