package scene

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:generate go run ./internal/gen -dir scenes

//go:embed scenes/*.yaml
var embedded embed.FS

// Names returns the names of the embedded scenes, sorted: arm, chain, clutter,
// clutter-nowalls, double-pendulum, drop, grasp, incline, pendulum,
// spring-cylinder, spring-cylinder-frictionless, stack. The grasp scene
// includes robot models (embedded:// files): load it with model/load.
func Names() []string {
	entries, err := fs.ReadDir(embedded, "scenes")
	if err != nil {
		panic("scene: reading embedded scenes: " + err.Error())
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Embedded returns the YAML text of the embedded scene name (without the
// .yaml suffix).
func Embedded(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return nil, false
	}
	data, err := embedded.ReadFile("scenes/" + name + ".yaml")
	if err != nil {
		return nil, false
	}
	return data, true
}
