package load

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/embedded"
	"github.com/stiction-sim/stiction/model/mjcf"
	"github.com/stiction-sim/stiction/model/sdf"
	"github.com/stiction-sim/stiction/model/urdf"
	"github.com/stiction-sim/stiction/scene"
)

// Options configure Scene.
type Options struct {
	Model model.Options // search paths, floating root
	// Ground adds a fixed half-space body "ground" (its top face at z = 0)
	// with the default contact material.
	Ground bool
}

// maxIncludeDepth bounds nested includes (and catches include cycles).
const maxIncludeDepth = 16

// IsModelFile reports whether path names a robot model file by its
// extension: .urdf, .sdf, .xml or .mjcf.
func IsModelFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".urdf", ".sdf", ".xml", ".mjcf":
		return true
	}
	return false
}

// Model imports a robot model file, choosing the importer by extension.
// An embedded://PATH name is one of the models shipped in the binary
// (package model/embedded).
func Model(path string, opts model.Options) (*model.Import, error) {
	path, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if opts.Access != nil {
		if path, err = opts.Access(path); err != nil {
			return nil, err
		}
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".urdf":
		return urdf.Read(path, opts)
	case ".sdf":
		return sdf.Read(path, opts)
	case ".xml", ".mjcf":
		return mjcf.Read(path, opts)
	}
	return nil, fmt.Errorf("%s: not a robot model file (want .urdf, .sdf, .xml or .mjcf)", path)
}

// resolve returns the file-system path of an embedded:// name (written
// out by package embedded on first use), or path itself.
func resolve(path string) (string, error) {
	if !embedded.IsURI(path) {
		return path, nil
	}
	return embedded.Path(path)
}

// Scene loads what stiction run accepts: the name of an embedded scene, a
// YAML scene file (its includes resolved with opts.Model) or a robot model
// file, applies the --set overrides and validates the result. For a model
// file it also returns the import (warnings, actuators, ...), else nil.
func Scene(nameOrPath string, sets []string, opts Options) (*scene.Scene, *model.Import, error) {
	if embedded.IsURI(nameOrPath) {
		p, err := embedded.Path(nameOrPath)
		if err != nil {
			return nil, nil, err
		}
		nameOrPath = p
	}
	if !IsModelFile(nameOrPath) {
		if _, ok := scene.Embedded(nameOrPath); !ok && opts.Model.Access != nil {
			p, err := opts.Model.Access(nameOrPath)
			if err != nil {
				return nil, nil, err
			}
			nameOrPath = p
		}
		s, err := scene.LoadWith(nameOrPath, sets, scene.Options{Include: includer(opts.Model, []string{nameOrPath})})
		if err != nil {
			return nil, nil, err
		}
		if err := AccessShapes(s, opts.Model.Access); err != nil {
			return nil, nil, err
		}
		if opts.Ground {
			if err := AddGround(s); err != nil {
				return nil, nil, err
			}
		}
		return s, nil, nil
	}
	im, err := Model(nameOrPath, opts.Model)
	if err != nil {
		return nil, nil, err
	}
	if opts.Ground {
		if err := AddGround(im.Scene); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", nameOrPath, err)
		}
	}
	rebaseShapes(im.Scene, filepath.Dir(nameOrPath))
	// Round-trip through YAML so that --set, --dt and --duration reach an
	// imported model exactly as they reach a scene file.
	data, err := scene.Marshal(im.Scene)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", nameOrPath, err)
	}
	s, err := scene.ParseWith(nameOrPath, data, sets, scene.Options{Dir: filepath.Dir(nameOrPath)})
	if err != nil {
		return nil, nil, dropLines(err)
	}
	if err := AccessShapes(s, opts.Model.Access); err != nil {
		return nil, nil, err
	}
	carryMuJoCoMeshes(im.Scene, s)
	im.Scene = s
	return s, im, nil
}

// carryMuJoCoMeshes gives the collision shapes of to the compiled MuJoCo
// meshes (scene.Shape.MuJoCo, which YAML does not carry) of the same
// body's same collision in from, the scene to's round trip started from.
func carryMuJoCoMeshes(from, to *scene.Scene) {
	for i := range min(len(from.Bodies), len(to.Bodies)) {
		a, b := &from.Bodies[i], &to.Bodies[i]
		if a.Name != b.Name || len(a.Collisions) != len(b.Collisions) {
			continue
		}
		if a.Shape != nil && b.Shape != nil && b.Shape.Type == "mesh" {
			b.Shape.MuJoCo = a.Shape.MuJoCo
		}
		for j := range a.Collisions {
			if ca, cb := a.Collisions[j].Shape, b.Collisions[j].Shape; ca != nil && cb != nil && cb.Type == "mesh" {
				cb.MuJoCo = ca.MuJoCo
			}
		}
	}
}

// SceneData is Scene for the text of a YAML scene file named name (its
// includes resolved from name's directory with opts.Model).
func SceneData(name string, data []byte, sets []string, opts Options) (*scene.Scene, error) {
	s, err := scene.ParseWith(name, data, sets, scene.Options{Dir: filepath.Dir(name), Include: includer(opts.Model, []string{name})})
	if err != nil {
		return nil, err
	}
	if err := AccessShapes(s, opts.Model.Access); err != nil {
		return nil, err
	}
	if opts.Ground {
		if err := AddGround(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// dropLines removes the line numbers from the errors of a scene that was
// generated from a model file: they would point into the generated YAML,
// not into the file the user wrote (the field path and --set argument
// remain).
func dropLines(err error) error {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var fe *scene.FieldError
		if errors.As(e, &fe) {
			fe.Line = 0
		}
	}
	return err
}

// AddGround adds, as the scene's first body, a fixed half-space at z = 0
// with the default contact material (added if the scene has none of that
// name), named "ground", or "ground_plane" (then "ground_plane_2", …) when
// a body of the file already has that name (example-robot-data's TwoDofs
// has a link named ground).
func AddGround(s *scene.Scene) error {
	name := "ground"
	taken := func(n string) bool {
		return slices.ContainsFunc(s.Bodies, func(b scene.Body) bool { return b.Name == n })
	}
	for k := 1; taken(name); k++ {
		name = "ground_plane"
		if k > 1 {
			name = fmt.Sprintf("ground_plane_%d", k)
		}
	}
	if s.Materials == nil {
		s.Materials = map[string]scene.Material{}
	}
	if _, ok := s.Materials[model.DefaultMaterial]; !ok {
		s.Materials[model.DefaultMaterial] = model.NewMaterial(model.DefaultStiffness, model.DefaultDissipation, model.DefaultFriction)
	}
	s.Bodies = slices.Insert(s.Bodies, 0, scene.Body{Name: name, Fixed: true, Shape: &scene.Shape{Type: "halfspace"}, Material: model.DefaultMaterial})
	return nil
}

// includer resolves a scene's includes: robot files by their importer
// (floating as the include says), YAML scenes recursively. stack holds the
// files being loaded, to report cycles.
func includer(opts model.Options, stack []string) scene.Includer {
	return func(path string, inc scene.Include) (*scene.Scene, error) {
		path, err := resolve(path)
		if err != nil {
			return nil, err
		}
		if opts.Access != nil && !IsModelFile(path) { // Model asks about model files
			if path, err = opts.Access(path); err != nil {
				return nil, err
			}
		}
		if slices.Contains(stack, path) || len(stack) > maxIncludeDepth {
			return nil, fmt.Errorf("include cycle or nesting deeper than %d: %s", maxIncludeDepth, strings.Join(append(stack, path), " → "))
		}
		if !IsModelFile(path) {
			return scene.LoadWith(path, inc.Set, scene.Options{Include: includer(opts, append(stack, path))})
		}
		o := opts
		o.Floating = inc.Floating
		im, err := Model(path, o)
		if err != nil {
			return nil, err
		}
		if len(inc.Set) == 0 {
			return im.Scene, nil
		}
		// The include's overrides reach the model as --set reaches a
		// scene file: through its YAML form.
		data, err := scene.Marshal(im.Scene)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		s, err := scene.ParseWith(path, data, inc.Set, scene.Options{Dir: filepath.Dir(path)})
		if err != nil {
			return nil, dropLines(err)
		}
		return s, nil
	}
}

// AccessShapes passes the mesh file of every shape of s through access
// (model.Options.Access), made absolute against the scene's directory
// first, and keeps the path it returns; an error names the shape's field.
// A nil access does nothing.
func AccessShapes(s *scene.Scene, access func(string) (string, error)) error {
	if access == nil {
		return nil
	}
	fix := func(path string, sh *scene.Shape) error {
		if sh == nil || sh.File == "" {
			return nil
		}
		f := sh.File
		if !filepath.IsAbs(f) && s.Dir != "" {
			f = filepath.Join(s.Dir, f)
		}
		p, err := access(f)
		if err != nil {
			return fmt.Errorf("%s.file: %w", path, err)
		}
		sh.File = p
		return nil
	}
	return eachShape(s, fix)
}

// eachShape calls fix with every shape of s and its field path, stopping at
// the first error.
func eachShape(s *scene.Scene, fix func(path string, sh *scene.Shape) error) error {
	for i := range s.Bodies {
		b := &s.Bodies[i]
		at := fmt.Sprintf("bodies[%d]", i)
		if err := fix(at+".shape", b.Shape); err != nil {
			return err
		}
		for k := range b.Collisions {
			if err := fix(fmt.Sprintf("%s.collisions[%d].shape", at, k), b.Collisions[k].Shape); err != nil {
				return err
			}
		}
		for k := range b.Visuals {
			if err := fix(fmt.Sprintf("%s.visuals[%d].shape", at, k), b.Visuals[k].Shape); err != nil {
				return err
			}
		}
	}
	return nil
}

// rebaseShapes makes the relative mesh file of every shape of an imported
// model's scene s relative to dir, the directory the scene is built
// against (scene.Options.Dir): the importers resolve a model's mesh files
// against the working directory (testdata/robot/assets/link.stl for
// testdata/robot/robot.xml), which the builder would otherwise join to
// dir a second time.
func rebaseShapes(s *scene.Scene, dir string) {
	_ = eachShape(s, func(_ string, sh *scene.Shape) error {
		if sh == nil || sh.File == "" || filepath.IsAbs(sh.File) || dir == "" || dir == "." {
			return nil
		}
		if r, err := filepath.Rel(dir, sh.File); err == nil {
			sh.File = r
		}
		return nil
	})
}
