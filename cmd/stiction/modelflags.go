package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/stiction-sim/stiction/model"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
)

// modelFlags are the flags for robot model files and scenes that include
// them (stiction run and stiction inspect).
type modelFlags struct {
	ground, floating, warnings bool
	selfCollision              bool
	keyframe                   string
	packagePaths, modelPaths   multiFlag
	stderr                     io.Writer // for import warnings; nil: discarded
}

func (f *modelFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.ground, "ground", false, "add a ground half-space at z = 0")
	fs.BoolVar(&f.floating, "floating", false, "URDF/SDFormat: make the root link free instead of welded to the world")
	fs.BoolVar(&f.selfCollision, "self-collision", false, "URDF: let links not joined by a joint or welded together collide with each other (default off, as PyBullet and Gazebo; pairs overlapping at the start stay excluded)")
	fs.BoolVar(&f.warnings, "warnings", false, "list every import warning (unsupported, ignored or approximated elements)")
	fs.StringVar(&f.keyframe, "keyframe", "", "start from the named keyframe")
	fs.Var(&f.packagePaths, "package-path", "directory searched for package:// URIs (repeatable)")
	fs.Var(&f.modelPaths, "model-path", "directory searched for model:// URIs (repeatable)")
}

// options returns the load options of the flags.
func (f *modelFlags) options() modelload.Options {
	return modelload.Options{
		Model:  model.Options{PackagePaths: abs(f.packagePaths), ModelPaths: abs(f.modelPaths), Floating: f.floating, SelfCollision: f.selfCollision},
		Ground: f.ground,
	}
}

func abs(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		out[i] = p
	}
	return out
}

// loadScene loads a scene or model file (loadWithImport) and applies
// --keyframe.
func (f *modelFlags) loadScene(name string, sets []string) (*scene.Scene, error) {
	sc, _, err := loadWithImport(*f, name, sets)
	if err != nil {
		return nil, err
	}
	if f.keyframe != "" {
		if err := sc.ApplyKeyframe(f.keyframe); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// loadWithImport loads a scene or model file with the flags' options and
// reports import warnings on stderr (a count, or all with --warnings).
func loadWithImport(f modelFlags, name string, sets []string) (*scene.Scene, *model.Import, error) {
	sc, im, err := modelload.Scene(name, sets, f.options())
	if err != nil {
		return nil, nil, err
	}
	f.reportWarnings(name, im)
	return sc, im, nil
}

// reportWarnings writes an import's warnings to the flags' stderr: a
// count, or every warning with --warnings; and the importer's choice of
// scheme, unless --scheme or --set overrode it.
func (f modelFlags) reportWarnings(name string, im *model.Import) {
	stderr := f.stderr
	if stderr == nil {
		stderr = io.Discard
	}
	if im == nil {
		return
	}
	if c := im.SchemeChoice; c != nil && im.Scene != nil && im.Scene.Scheme == c.Scheme {
		fmt.Fprintf(stderr, "stiction: %s\n", c.Why)
	}
	if len(im.Warnings) == 0 {
		return
	}
	if f.warnings {
		for _, w := range im.Warnings {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
		return
	}
	fmt.Fprintf(stderr, "stiction: %s: %d import warnings (unsupported, ignored or approximated elements; --warnings lists them)\n", name, len(im.Warnings))
}
