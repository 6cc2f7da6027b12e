package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestSpatialTendonImportErrors: a spatial tendon's bad path is refused
// with the file, line, attribute and value.
func TestSpatialTendonImportErrors(t *testing.T) {
	body := `<worldbody><site name="w"/><geom name="box" type="box" size=".1 .1 .1"/><geom name="ball" type="sphere" size=".1"/>
<body><joint name="h" axis="0 1 0"/><geom name="cap" type="capsule" size="0.1 .2"/><site name="s"/></body></worldbody>`
	for _, c := range []struct{ xml, want string }{
		{`<tendon><spatial><site site="w"/><site site="nope"/></spatial></tendon>`, `spatial.xml:2: <site> site="nope": no site named "nope"`},
		{`<tendon><spatial><site site="w"/><geom geom="box"/><site site="s"/></spatial></tendon>`, `geom="box": geom "box" is a box: tendons wrap over spheres and cylinders only`},
		{`<tendon><spatial><site site="w"/><geom geom="cap"/><site site="s"/></spatial></tendon>`, `geom "cap" is a capsule`},
		{`<tendon><spatial><site site="w"/><geom geom="none"/><site site="s"/></spatial></tendon>`, `no sphere or cylinder geom named "none"`},
		{`<tendon><spatial><site site="w"/><geom geom="ball" sidesite="x"/><site site="s"/></spatial></tendon>`, `sidesite="x": no site named "x"`},
		{`<tendon><spatial><geom geom="ball"/><site site="w"/><site site="s"/></spatial></tendon>`, `a wrapping geom must follow a site`},
		{`<tendon><spatial><site site="w"/><geom geom="ball"/></spatial></tendon>`, `at least two sites and must end with a site`},
		{`<tendon><spatial><site site="w"/></spatial></tendon>`, `at least two sites`},
		{`<tendon><spatial><site site="w"/><pulley divisor="2"/><site site="s"/></spatial></tendon>`, `the branch before this pulley has 1 site`},
		{`<tendon><spatial><site site="w"/><site site="s"/><pulley divisor="2"/><site site="s"/></spatial></tendon>`, `the branch after the last pulley has 1 site`},
		{`<tendon><spatial><site site="w"/><site site="s"/><pulley divisor="2"/><pulley divisor="2"/><site site="s"/><site site="w"/></spatial></tendon>`, `two pulleys in a row`},
		{`<tendon><spatial><site site="w"/><site site="s"/><pulley divisor="2"/></spatial></tendon>`, `must end with a site`},
		{`<tendon><spatial><site site="w"/><site site="s"/><pulley divisor="0"/><site site="s"/><site site="w"/></spatial></tendon>`, `spatial.xml:2: <pulley> divisor="0": 0: a pulley's divisor must be positive`},
		{`<tendon><spatial><site site="w"/><site site="s"/><pulley divisor="two"/><site site="s"/><site site="w"/></spatial></tendon>`, `divisor="two"`},
		{`<tendon><spatial><site site="w"/><site site="s"/><pulley/><site site="s"/><site site="w"/></spatial></tendon>`, `divisor`},
		{`<tendon><spatial><site site="w"/><site site="s"/><pulley divisor="2"/><geom geom="ball"/><site site="s"/><site site="w"/></spatial></tendon>`, `a wrapping geom must follow a site`},
		{`<actuator><motor cranksite="s" slidersite="nope" cranklength=".1"/></actuator>`, `slidersite="nope": no site named "nope"`},
		{`<actuator><motor slidersite="w" cranklength=".1"/></actuator>`, `cranksite`},
		{`<actuator><motor cranksite="s" slidersite="w"/></actuator>`, `a slider-crank needs cranklength > 0`},
		{`<actuator><motor cranksite="s" slidersite="w" cranklength="-1"/></actuator>`, `cranklength="-1": a slider-crank needs cranklength > 0`},
		{`<actuator><motor cranksite="s" slidersite="w" cranklength=".1" joint="h"/></actuator>`, `a slider-crank and a joint or tendon given`},
	} {
		_, err := Parse("spatial.xml", []byte("<mujoco>"+body+c.xml+"</mujoco>"), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.xml, err, c.want)
		}
	}
}
