package runner

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/embedded"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
)

// Source says how to build a run's scene: an embedded scene name, a scene
// file (whose text is kept, so that a checkpoint does not depend on the
// file staying unchanged; the models it includes are read again) or a robot
// model file (MJCF, URDF, SDFormat, read again with its meshes), the --set
// overrides, the model options (search paths, floating root, ground), the
// keyframe to start from, and the island workers.
type Source struct {
	Scene    string            // embedded name, or the file's absolute path (used in errors)
	Data     []byte            // a scene file's text; nil for an embedded scene or a model file
	Sets     []string          // overrides, path=value, applied in order
	Workers  int               // island-solver workers; 0 for the scene's (stack.DefaultWorkers)
	Model    modelload.Options // robot model options
	Keyframe string            // initial keyframe, "" for the scene's initial state
	// OnImport, if set, is called with the import of a robot model file
	// (its warnings); it is not part of a checkpoint.
	OnImport func(*model.Import) `json:"-"`
}

// NewSource reads the scene or model named nameOrPath (an embedded scene,
// or else a file) with the given overrides.
func NewSource(nameOrPath string, sets []string, workers int) (Source, error) {
	src := Source{Scene: nameOrPath, Sets: append([]string(nil), sets...), Workers: workers}
	if _, ok := scene.Embedded(nameOrPath); ok || embedded.IsURI(nameOrPath) {
		return src, nil // an embedded scene, or a model shipped in the binary
	}
	if modelload.IsModelFile(nameOrPath) {
		if abs, err := filepath.Abs(nameOrPath); err == nil {
			src.Scene = abs
		}
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

// Load parses the scene, or imports the model file into one, with the
// overrides; the import is nil for scene data given in memory.
func (s Source) Load() (*scene.Scene, *model.Import, error) {
	if s.Data != nil {
		sc, err := modelload.SceneData(s.Scene, s.Data, s.Sets, s.Model)
		return sc, nil, err
	}
	return modelload.Scene(s.Scene, s.Sets, s.Model)
}

// Build parses (or imports), validates and builds the scene, and applies
// the keyframe.
func (s Source) Build() (*scene.Built, error) {
	sc, im, err := s.Load()
	if err != nil {
		return nil, err
	}
	return s.BuildLoaded(sc, im)
}

// BuildLoaded builds the scene sc that Load returned (with its import im):
// it reports the import to OnImport, applies the keyframe and, when
// Workers > 0, rebuilds the island solver with that many workers.
func (s Source) BuildLoaded(sc *scene.Scene, im *model.Import) (*scene.Built, error) {
	if im != nil && s.OnImport != nil {
		s.OnImport(im)
	}
	if s.Keyframe != "" {
		if err := sc.ApplyKeyframe(s.Keyframe); err != nil {
			return nil, err
		}
	}
	b, err := scene.Build(sc)
	if err != nil {
		return nil, err
	}
	if s.Workers < 0 {
		return nil, fmt.Errorf("runner: %d workers: want 0 (the default) or more", s.Workers)
	}
	if s.Workers > 0 {
		if err := WrapIslands(b, s.Workers); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// WrapIslands rebuilds the solver stack of b with an island solver of the
// given workers around its refined solver (the --workers flag of
// "stiction run"; 0 workers: no island solver, one solve of each problem).
func WrapIslands(b *scene.Built, workers int) error {
	b.Stack.Workers = workers
	sv, err := b.Stack.Build()
	if err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	b.Config.Solver = sv
	return nil
}
