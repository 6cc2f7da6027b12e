package peers

import (
	"embed"
	"fmt"

	"github.com/stiction-sim/stiction/scene"
)

//go:embed scenes/*.yaml scenes/README.md
var files embed.FS

// Names lists the peer scenes of `stiction bench --peers`, in the order of
// the peer table.
var Names = []string{"clutter-40", "clutter-160", "stack-100-spheres"}

// All lists every peer scene of issue 23's table: Names, then the 10
// perturbed cubes at δt = 10 ms and 1 ms and the single sliding cube.
var All = []string{"clutter-40", "clutter-160", "stack-100-spheres",
	"boxes-10-perturbed", "boxes-10-perturbed-1ms", "cube-slide"}

// YAML returns the text of the peer scene name.
func YAML(name string) ([]byte, error) {
	data, err := files.ReadFile("scenes/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("peers: no scene %q (have %v): %w", name, All, err)
	}
	return data, nil
}

// README returns the text of the embedded copy of the peer scenes' README.
func README() []byte {
	data, err := files.ReadFile("scenes/README.md")
	if err != nil {
		panic("peers: embedded README missing: " + err.Error())
	}
	return data
}

// Load parses and validates the peer scene name with the --set overrides
// sets.
func Load(name string, sets []string) (*scene.Scene, error) {
	data, err := YAML(name)
	if err != nil {
		return nil, err
	}
	sc, err := scene.Parse(name+".yaml", data, sets)
	if err != nil {
		return nil, fmt.Errorf("peers: %w", err)
	}
	return sc, nil
}
