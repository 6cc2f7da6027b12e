package mjref

import (
	"math"
	"path/filepath"
	"testing"
)

// TestContactWeightsAreMuJoCos: the weight of MuJoCo's soft contact rows
// (contact.Material.SlipWeight, the diagApprox of the pyramid's R and of
// the elliptic rows) is MuJoCo 2.2.2's body_invweight0 of the geom's body
// (mj_setConst: the trace of J M⁻¹ Jᵀ over 3 at qpos0, armature
// included), to 1e-9 relative, for every colliding geom of Gymnasium's
// ant, hopper, walker2d and humanoid (measured: equal to 12 digits).
func TestContactWeightsAreMuJoCos(t *testing.T) {
	for _, f := range []string{"gymnasium/ant.xml", "gymnasium/hopper.xml", "gymnasium/walker2d.xml", "gymnasium/humanoid.xml"} {
		path := filepath.Join("testdata", f)
		mj := run(t, path, Options{Steps: 0})
		b, _, err := stiction(path)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{}
		for _, bd := range mj.Bodies {
			want[bd.Name] = bd.InvWeight0[0]
		}
		checked := 0
		for _, g := range b.Model.Geometries {
			name := b.Model.Bodies[g.Body].Name
			w, ok := want[name]
			if !ok || w == 0 || name == "" {
				continue // the world, an unnamed body, or one MuJoCo does not have
			}
			got := b.Config.Materials[g.Material].SlipWeight
			if !(math.Abs(got-w) <= 1e-9*w) {
				t.Errorf("%s: geom %q on %q: SlipWeight %.12g, MuJoCo's body_invweight0 %.12g", f, g.Name, name, got, w)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no geom compared", f)
		}
		t.Logf("%s: %d geoms' weights compared", f, checked)
	}
}
