package mjcf

import (
	"slices"
	"strings"
	"testing"
)

// TestEqualitySolImpUsed: an equality's solimp reaches the scene's
// constraint (MuJoCo's soft connect, weld and joint equality use it) and
// draws no warning that it is unused.
func TestEqualitySolImpUsed(t *testing.T) {
	im := parseDoc(t, `<mujoco><worldbody>
<body name="a" pos="0 0 1"><freejoint/><geom size="0.1"/></body>
<body name="b" pos="0.3 0 1"><freejoint/><geom size="0.1"/></body>
<body name="c" pos="0 0 0"><joint name="j1" type="hinge"/><geom size="0.1" pos="0.2 0 0"/></body>
<body name="d" pos="1 0 0"><joint name="j2" type="hinge"/><geom size="0.1" pos="0.2 0 0"/></body>
</worldbody><equality>
<connect name="ca" body1="a" body2="b" anchor="0.15 0 0" solimp="0.8 0.9 0.002 0.5 2"/>
<weld name="wa" body1="b" solimp="0.7 0.9 0.003 0.5 2"/>
<joint name="ja" joint1="j1" joint2="j2" solimp="0.6 0.9 0.004 0.5 2"/>
</equality></mujoco>`)
	for _, w := range im.Warnings {
		if strings.Contains(w.String(), "solimp") {
			t.Errorf("warning about solimp: %v", w)
		}
	}
	want := map[string][]float64{"ca": {0.8, 0.9, 0.002, 0.5, 2}, "wa": {0.7, 0.9, 0.003, 0.5, 2}, "ja": {0.6, 0.9, 0.004, 0.5, 2}}
	found := 0
	for _, con := range im.Scene.Constraints {
		if w, ok := want[con.Name]; ok {
			found++
			if !slices.Equal(con.SolImp, w) {
				t.Errorf("%s: solimp %v, want %v", con.Name, con.SolImp, w)
			}
		}
	}
	if found != len(want) {
		t.Errorf("found %d of the %d equalities in the scene's constraints", found, len(want))
	}
}
