package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestCompositeMasslessBody: a free body whose mass MuJoCo generates from a
// <composite> child (MuJoCo's model/composite/rope.xml) is refused with an
// error that names the body, the file's line of the body and the
// composite's line, not only "no mass".
func TestCompositeMasslessBody(t *testing.T) {
	doc := `<mujoco>
  <worldbody>
    <body name="B10" pos="0 0 1">
      <freejoint/>
      <composite type="rope" count="21 1 1" spacing="0.04">
        <geom type="capsule" size=".01 .015"/>
      </composite>
    </body>
  </worldbody>
</mujoco>`
	_, err := Parse("rope.xml", []byte(doc), model.Options{})
	if err == nil {
		t.Fatal("a free body with only a <composite> loaded; want an error")
	}
	for _, want := range []string{"rope.xml:3", `"B10"`, "<composite> (line 5)", "not supported"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}
