package scene

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error line names the
// file, and that whatever it accepts is valid and survives Marshal/Parse.
func FuzzParse(f *testing.F) {
	for _, name := range Names() {
		data, _ := Embedded(name)
		f.Add(data, "")
		f.Add(data, "bodies.1.pose.position=[0, 0, 1]")
	}
	f.Add([]byte(base), "bodies.ball.velocity.linear=[1,0,0]")
	f.Add([]byte(full), "materials.steel.friction=0.375")
	f.Add([]byte("a: &a [*a]\n"), "a.0=1")
	f.Add([]byte("- 1\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		s, err := Parse("fuzz.yaml", data, sets)
		if err != nil {
			if s != nil {
				t.Fatal("scene returned with an error")
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "fuzz.yaml") {
					t.Fatalf("error line %q does not name the file; error:\n%v", line, err)
				}
			}
			return
		}
		if err := s.Validate("fuzz.yaml"); err != nil {
			t.Fatalf("Parse accepted a scene that Validate rejects: %v", err)
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		back, err := Parse("fuzz.yaml", out, nil)
		if err != nil {
			t.Fatalf("Parse(Marshal(s)): %v\n%s", err, out)
		}
		if !reflect.DeepEqual(s, back) {
			t.Fatalf("round trip changed the scene:\n%s", out)
		}
	})
}
