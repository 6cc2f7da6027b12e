package sdf

import (
	"os"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/embedded"
)

// FuzzSDF feeds arbitrary documents to the importer: it must return an
// import whose scene validated, or an error, and never panic. Mesh and
// include paths resolve against testdata/ (which holds no models).
func FuzzSDF(f *testing.F) {
	for _, s := range []string{`<sdf version="1.7"><model name="m"><link name="a"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial><collision name="c"><geometry><sphere><radius>1</radius></sphere></geometry></collision></link><frame name="f" attached_to="a"><pose relative_to="a">0 0 1 0 0 0</pose></frame><joint name="j" type="revolute"><parent>world</parent><child>a</child><pose relative_to="f"/><axis><xyz expressed_in="__model__">0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint></model></sdf>`, `<sdf version="1.7"><world name="w"><gravity>0 0 -1</gravity><model name="m"><static>true</static><link name="g"><collision name="p"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model></world></sdf>`} {
		f.Add([]byte(s))
	}
	for _, uri := range []string{"embedded://drake_models/iiwa_description/sdf/iiwa14_no_collision.sdf", "embedded://drake_models/allegro_hand_description/sdf/allegro_hand_description_right.sdf"} {
		p, err := embedded.Path(uri)
		if err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := Parse("testdata/fuzz.sdf", data, model.Options{})
		if err == nil {
			if err := im.Scene.Validate("fuzz"); err != nil {
				t.Fatalf("accepted a scene that does not validate: %v", err)
			}
		}
	})
}
