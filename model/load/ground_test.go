package load

import (
	"testing"

	"github.com/stiction-sim/stiction/scene"
)

// TestAddGroundNameTaken: the ground added to a file that has a body named
// ground is named ground_plane (then ground_plane_2), as the first body.
func TestAddGroundNameTaken(t *testing.T) {
	s := &scene.Scene{Bodies: []scene.Body{{Name: "ground"}}}
	for _, want := range []string{"ground_plane", "ground_plane_2"} {
		if err := AddGround(s); err != nil {
			t.Fatal(err)
		}
		if s.Bodies[0].Name != want || s.Bodies[0].Shape == nil || s.Bodies[0].Shape.Type != "halfspace" {
			t.Errorf("first body %q (%v), want the half-space %q", s.Bodies[0].Name, s.Bodies[0].Shape, want)
		}
	}
}
