package runner

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver/island"
)

// Source says how to build a run's scene: an embedded scene name or a
// scene file (whose text is kept, so that a checkpoint does not depend on
// the file staying unchanged), the --set overrides, and the island
// workers.
type Source struct {
	Scene   string   // embedded name, or the file's absolute path (used in errors)
	Data    []byte   // the file's text; nil for an embedded scene
	Sets    []string // overrides, path=value, applied in order
	Workers int      // island-solver workers; 0 for one SAP solve
}

// NewSource reads the scene named nameOrPath (an embedded scene, or else a
// file) with the given overrides.
func NewSource(nameOrPath string, sets []string, workers int) (Source, error) {
	src := Source{Scene: nameOrPath, Sets: append([]string(nil), sets...), Workers: workers}
	if _, ok := scene.Embedded(nameOrPath); ok {
		return src, nil
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		// scene.Load words the error for the user (unknown scene, embedded names).
		_, lerr := scene.Load(nameOrPath, sets)
		if lerr == nil {
			lerr = err
		}
		return src, lerr
	}
	if abs, err := filepath.Abs(nameOrPath); err == nil {
		src.Scene = abs
	}
	src.Data = data
	return src, nil
}

// Build parses, validates and builds the scene.
func (s Source) Build() (*scene.Built, error) {
	var (
		sc  *scene.Scene
		err error
	)
	if s.Data == nil {
		sc, err = scene.Load(s.Scene, s.Sets)
	} else {
		sc, err = scene.Parse(s.Scene, s.Data, s.Sets)
	}
	if err != nil {
		return nil, err
	}
	b, err := scene.Build(sc)
	if err != nil {
		return nil, err
	}
	if s.Workers < 0 {
		return nil, fmt.Errorf("runner: %d workers: want 0 (one SAP solve) or more", s.Workers)
	}
	if s.Workers > 0 {
		WrapIslands(b, s.Workers)
	}
	return b, nil
}

// WrapIslands wraps the configured SAP solver of b in an island solver with
// the given workers (the --workers flag of "stiction run").
func WrapIslands(b *scene.Built, workers int) {
	is := island.New(b.NewSolver, workers)
	is.SetTolerance(b.Tolerance())
	b.Config.Solver = is
}
