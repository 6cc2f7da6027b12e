package load

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/model/urdf"
)

// TestURDFSchemeOverride: a URDF with a damped joint loads with
// urdf.DampedScheme, and the user's --scheme (a --set of scheme) overrides
// it.
func TestURDFSchemeOverride(t *testing.T) {
	doc := `<robot name="r"><link name="base"/>
<link name="l"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="continuous"><parent link="base"/><child link="l"/><dynamics damping="0.5"/></joint></robot>`
	p := filepath.Join(t.TempDir(), "damped.urdf")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sets []string
		want string
	}{{nil, urdf.DampedScheme}, {[]string{"scheme=symplectic-euler"}, "symplectic-euler"}, {[]string{"scheme=implicit-euler"}, "implicit-euler"}} {
		s, _, err := Scene(p, c.sets, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Scheme != c.want {
			t.Errorf("sets %v: scheme %q, want %q", c.sets, s.Scheme, c.want)
		}
	}
}
