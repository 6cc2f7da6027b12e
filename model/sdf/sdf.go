package sdf

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// DefaultDT is the time step of an imported model without a <physics>
// max_step_size.
const DefaultDT = 1e-3

// maxIncludeDepth bounds nested includes.
const maxIncludeDepth = 16

// Read imports the SDFormat file at path.
func Read(path string, opts model.Options) (*model.Import, error) {
	data, err := xmlutil.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sdf: %w", err)
	}
	return Parse(path, data, opts)
}

// Parse imports the SDFormat document in data; path names it in messages
// and locates relative URIs.
func Parse(path string, data []byte, opts model.Options) (*model.Import, error) {
	im := &importer{opts: opts, out: &model.Import{Format: "sdf"}}
	root, r, err := im.open(path, data)
	if err != nil {
		return nil, err
	}
	if err := im.document(root, r, path); err != nil {
		return nil, err
	}
	if err := im.finish(); err != nil {
		return nil, err
	}
	for _, f := range im.files {
		im.out.Warnings = append(im.out.Warnings, f.r.Warnings...)
		im.out.Warnings = append(im.out.Warnings, xmlutil.Unused(f.r.File, f.root, "not supported (ignored)")...)
	}
	s := im.out.Scene
	s.ApplyDefaults()
	if err := s.Validate(path); err != nil {
		return nil, fmt.Errorf("%s: the imported scene is invalid: %w", path, err)
	}
	return im.out, nil
}

// file is one parsed document (the main file or an included one).
type file struct {
	root *xmlutil.Element
	r    *xmlutil.Reader
}

// importer carries one import, across included files.
type importer struct {
	opts  model.Options
	out   *model.Import
	files []file
	depth int
	links map[string]*link // by scoped name
	order []*link          // in file order
}

// open parses a document and checks its <sdf> root.
func (im *importer) open(path string, data []byte) (*xmlutil.Element, *xmlutil.Reader, error) {
	root, err := xmlutil.Parse(path, data)
	if err != nil {
		return nil, nil, err
	}
	r := &xmlutil.Reader{File: path}
	if root.Name != "sdf" {
		return nil, nil, r.Errorf(root, "", "the root element must be <sdf>, not <%s>", root.Name)
	}
	root.MarkUsed()
	ver, err := r.Required(root, "version")
	if err != nil {
		return nil, nil, err
	}
	var major, minor int
	if _, err := fmt.Sscanf(ver, "%d.%d", &major, &minor); err != nil || major != 1 {
		return nil, nil, r.Errorf(root, "version", "want an SDFormat 1.x version")
	}
	if minor < 6 {
		r.Warnf(root, "version", "SDFormat %s is older than 1.6: read with 1.7 pose semantics", ver)
	}
	im.files = append(im.files, file{root, r})
	return root, r, nil
}

// document reads the top level: one <model> or one <world>.
func (im *importer) document(root *xmlutil.Element, r *xmlutil.Reader, path string) error {
	models, worlds := root.All("model"), root.All("world")
	switch {
	case len(models)+len(worlds) != 1:
		return r.Errorf(root, "", "an SDFormat file must hold exactly one <model> or one <world>, has %d models and %d worlds", len(models), len(worlds))
	case len(worlds) == 1:
		return im.world(worlds[0], r, path)
	}
	name, _ := models[0].Attr("name")
	im.out.Scene = model.NewScene(name, DefaultDT)
	c := &ctx{im: im, r: r, dir: filepath.Dir(path), topModel: true, xwm: spatial.PoseIdentity()}
	return c.model(models[0], "", spatial.PoseIdentity())
}

// world reads a <world>: gravity, the time step, models and includes.
func (im *importer) world(w *xmlutil.Element, r *xmlutil.Reader, path string) error {
	name, _ := w.Attr("name")
	im.out.Scene = model.NewScene(name, DefaultDT)
	s := im.out.Scene
	if g := w.Child("gravity"); g != nil {
		v, err := r.TextFloats(g, 3)
		if err != nil {
			return err
		}
		gv := scene.Vec(v)
		s.Gravity = &gv
	}
	if p := w.Child("physics"); p != nil {
		p.Attr("name")
		p.Attr("type")
		if dt, err := r.ChildFloat(p, "max_step_size", 0); err != nil {
			return err
		} else if dt > 0 {
			s.DT = dt
		}
	}
	c := &ctx{im: im, r: r, dir: filepath.Dir(path), xwm: spatial.PoseIdentity()}
	for _, m := range w.All("model") {
		if err := c.model(m, "", spatial.PoseIdentity()); err != nil {
			return err
		}
	}
	for _, inc := range w.All("include") {
		if err := c.include(inc, ""); err != nil {
			return err
		}
	}
	return nil
}

// scoped joins a scope and a name with "::".
func scoped(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "::" + name
}

// checkName rejects names that cannot name a scene body or joint.
func checkName(r *xmlutil.Reader, e *xmlutil.Element, name string) error {
	if strings.TrimSpace(name) == "" {
		return r.Errorf(e, "name", "missing or empty (required)")
	}
	if strings.ContainsAny(name, ".=[],\"\n\r") || strings.HasPrefix(name, "__") {
		return r.Errorf(e, "name", "a name must not contain '.', '=', '[', ']', commas, quotes or line breaks, nor start with \"__\"")
	}
	return nil
}
