package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Spec is a sweep specification file (docs/SWEEPS.md).
type Spec struct {
	File string // the spec's file name, used in errors
	Name string // sweep name (default: the file name without extension)
	// Scene is an embedded scene name or a scene file; a relative path is
	// relative to the spec file.
	Scene  string
	Sets   []string // overrides applied to every job before its parameters
	Grid   []Param  // the grid's axes, in file order: every combination is a job
	Random *Random  // random samples, combined with every grid point
	// Repeats runs each parameter combination this many times (default 1).
	Repeats int
	// Outputs are the summary statistics kept in the table (default all of
	// Statistics).
	Outputs []string
	// KeepRuns writes every job's run directory (CSV) under the worker's
	// output directory, runs/<sweep>/<job>.
	KeepRuns bool
	// AckWait is how long a job may go without a heartbeat before it is
	// delivered to another worker (default 30 s); MaxDeliveries bounds
	// the deliveries of one job (default 3).
	AckWait       time.Duration
	MaxDeliveries int
}

// Param is one grid axis: a --set path and its values (as written).
type Param struct {
	Path   string
	Values []string
}

// Random draws Samples parameter sets with a generator seeded by Seed.
type Random struct {
	Seed    uint64
	Samples int
	Params  []Dist
}

// Dist is the distribution of one random parameter.
type Dist struct {
	Path string
	Kind string    // uniform, loguniform, normal, integer or choice
	Args []float64 // uniform, loguniform, integer: [low, high]; normal: [mean, std]
	Set  []string  // choice: the values
}

// MaxJobs bounds the number of jobs of one sweep.
const MaxJobs = 1_000_000

// SpecError is one problem in a spec file.
type SpecError struct {
	File string
	Line int
	Path string // field, e.g. "grid.dt" or "random.params.x.uniform"
	Msg  string
}

func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ReadSpec reads and parses a spec file.
func ReadSpec(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	s, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if _, ok := embeddedScene(s.Scene); !ok && !filepath.IsAbs(s.Scene) {
		s.Scene = filepath.Join(filepath.Dir(path), s.Scene)
	}
	return s, nil
}

// specParser collects the errors of one spec.
type specParser struct {
	file string
	errs []error
}

func (p *specParser) errf(n *yaml.Node, path, format string, a ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &SpecError{File: p.file, Line: line, Path: path, Msg: fmt.Sprintf(format, a...)})
}

// Parse parses a spec (the YAML text data of the file named name) and
// checks it on its own; Spec.Jobs and Check check the jobs against the
// scene. All problems found are returned, joined; each is a *SpecError.
func Parse(name string, data []byte) (*Spec, error) {
	p := &specParser{file: name}
	var doc yaml.Node
	if len(bytes.TrimSpace(data)) == 0 {
		p.errf(nil, "", "empty spec file")
		return nil, errors.Join(p.errs...)
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		p.errf(nil, "", "not YAML: %v", err)
		return nil, errors.Join(p.errs...)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		p.errf(&doc, "", "the top level must be a mapping (scene, grid, random, ...)")
		return nil, errors.Join(p.errs...)
	}
	s := &Spec{File: name, Repeats: 1, AckWait: 30 * time.Second, MaxDeliveries: 3}
	s.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	root := doc.Content[0]
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			p.errf(k, k.Value, "given twice")
			continue
		}
		seen[k.Value] = true
		p.field(s, k.Value, v)
	}
	if !seen["scene"] {
		p.errf(root, "scene", "missing: name an embedded scene (stiction list) or a scene file")
	}
	if s.Grid == nil && s.Random == nil {
		p.errf(root, "", "a sweep needs a grid or random samples (or both)")
	}
	p.checkDuplicates(s, root)
	if len(p.errs) == 0 {
		if n := s.countJobs(); n > MaxJobs {
			p.errf(root, "", "%.0f jobs, more than the limit of %d", n, MaxJobs)
		}
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return s, nil
}

// field parses one top-level field.
func (p *specParser) field(s *Spec, key string, v *yaml.Node) {
	switch key {
	case "name":
		s.Name = p.str(v, key)
	case "scene":
		s.Scene = p.str(v, key)
		if strings.TrimSpace(s.Scene) == "" {
			p.errf(v, key, "empty: name an embedded scene or a scene file")
		}
	case "sets":
		s.Sets = p.strs(v, key)
		for _, a := range s.Sets {
			if !strings.Contains(a, "=") {
				p.errf(v, key, "%q is not path=value", a)
			}
		}
	case "grid":
		s.Grid = p.grid(v)
	case "random":
		s.Random = p.random(v)
	case "repeats":
		s.Repeats = p.intAtLeast(v, key, 1)
	case "outputs":
		s.Outputs = p.strs(v, key)
		for _, o := range s.Outputs {
			if !slices.Contains(Statistics, o) {
				p.errf(v, key, "%q is not a statistic (one of %s)", o, strings.Join(Statistics, ", "))
			}
		}
	case "keep_runs":
		if err := v.Decode(&s.KeepRuns); err != nil || v.Kind != yaml.ScalarNode {
			p.errf(v, key, "%q: want true or false", v.Value)
		}
	case "ack_wait":
		d, err := time.ParseDuration(p.str(v, key))
		if err != nil || d < time.Second {
			p.errf(v, key, "%q: want a duration of at least 1s, such as 30s or 5m", v.Value)
		}
		s.AckWait = d
	case "max_deliveries":
		s.MaxDeliveries = p.intAtLeast(v, key, 1)
	default:
		p.errf(v, key, "unknown field (want name, scene, sets, grid, random, repeats, outputs, keep_runs, ack_wait, max_deliveries)")
	}
}

func (p *specParser) str(v *yaml.Node, path string) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.errf(v, path, "want a string")
		return ""
	}
	return v.Value
}

func (p *specParser) strs(v *yaml.Node, path string) []string {
	if v.Kind != yaml.SequenceNode {
		p.errf(v, path, "want a list")
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for i, e := range v.Content {
		out = append(out, p.str(e, fmt.Sprintf("%s[%d]", path, i)))
	}
	return out
}

func (p *specParser) intAtLeast(v *yaml.Node, path string, lo int) int {
	n, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil || n < lo {
		p.errf(v, path, "%q: want an integer ≥ %d", v.Value, lo)
		return lo
	}
	return n
}

func (p *specParser) float(v *yaml.Node, path string) float64 {
	x, err := strconv.ParseFloat(v.Value, 64)
	if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		p.errf(v, path, "%q: want a finite number", v.Value)
		return 0
	}
	return x
}

// grid parses the grid: a mapping from --set paths to non-empty lists of
// values.
func (p *specParser) grid(v *yaml.Node) []Param {
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		p.errf(v, "grid", "want a mapping from --set paths to lists of values, e.g. materials.default.friction: [0.2, 0.5]")
		return []Param{}
	}
	out := []Param{} // not nil: the grid is there, even if every axis is bad
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, vals := v.Content[i], v.Content[i+1]
		path := "grid." + k.Value
		if vals.Kind != yaml.SequenceNode || len(vals.Content) == 0 {
			p.errf(vals, path, "want a non-empty list of values")
			continue
		}
		prm := Param{Path: k.Value}
		for j, e := range vals.Content {
			prm.Values = append(prm.Values, p.value(e, fmt.Sprintf("%s[%d]", path, j)))
		}
		out = append(out, prm)
	}
	return out
}

// value returns a parameter value as --set would take it: a scalar as
// written, a flow list or mapping re-encoded in flow style.
func (p *specParser) value(e *yaml.Node, path string) string {
	if e.Kind == yaml.ScalarNode {
		return e.Value
	}
	c := *e
	c.Style = yaml.FlowStyle
	out, err := yaml.Marshal(&c)
	if err != nil {
		p.errf(e, path, "cannot use this value: %v", err)
		return ""
	}
	return strings.TrimSpace(string(out))
}

// random parses the random section: seed, samples and params.
func (p *specParser) random(v *yaml.Node) *Random {
	r := &Random{}
	if v.Kind != yaml.MappingNode {
		p.errf(v, "random", "want a mapping with seed, samples and params")
		return r
	}
	var seen []string
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		seen = append(seen, k.Value)
		switch k.Value {
		case "seed":
			s, err := strconv.ParseUint(val.Value, 10, 64)
			if err != nil {
				p.errf(val, "random.seed", "%q: want an integer ≥ 0", val.Value)
			}
			r.Seed = s
		case "samples":
			r.Samples = p.intAtLeast(val, "random.samples", 1)
		case "params":
			r.Params = p.dists(val)
		default:
			p.errf(k, "random."+k.Value, "unknown field (want seed, samples, params)")
		}
	}
	for _, f := range []string{"seed", "samples", "params"} {
		if !slices.Contains(seen, f) {
			p.errf(v, "random."+f, "missing (a random section needs seed, samples and params, so that its samples are reproducible)")
		}
	}
	return r
}

// dists parses random.params: path: {uniform: [a, b]} and the like.
func (p *specParser) dists(v *yaml.Node) []Dist {
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		p.errf(v, "random.params", "want a mapping from --set paths to distributions, e.g. dt: {uniform: [0.001, 0.01]}")
		return nil
	}
	var out []Dist
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, d := v.Content[i], v.Content[i+1]
		path := "random.params." + k.Value
		if d.Kind != yaml.MappingNode || len(d.Content) != 2 {
			p.errf(d, path, "want one distribution: {uniform: [low, high]}, {loguniform: [low, high]}, {normal: [mean, std]}, {integer: [low, high]} or {choice: [values]}")
			continue
		}
		dist := Dist{Path: k.Value, Kind: d.Content[0].Value}
		args := d.Content[1]
		path += "." + dist.Kind
		if args.Kind != yaml.SequenceNode {
			p.errf(args, path, "want a list")
			continue
		}
		switch dist.Kind {
		case "choice":
			if len(args.Content) == 0 {
				p.errf(args, path, "want a non-empty list of values")
			}
			for j, e := range args.Content {
				dist.Set = append(dist.Set, p.value(e, fmt.Sprintf("%s[%d]", path, j)))
			}
		case "uniform", "loguniform", "normal", "integer":
			if len(args.Content) != 2 {
				p.errf(args, path, "want two numbers, got %d", len(args.Content))
				continue
			}
			a, b := p.float(args.Content[0], path), p.float(args.Content[1], path)
			dist.Args = []float64{a, b}
			p.checkDist(args, path, dist.Kind, a, b)
		default:
			p.errf(d.Content[0], path, "unknown distribution (uniform, loguniform, normal, integer or choice)")
			continue
		}
		out = append(out, dist)
	}
	return out
}

func (p *specParser) checkDist(n *yaml.Node, path, kind string, a, b float64) {
	switch {
	case kind == "normal" && !(b > 0):
		p.errf(n, path, "standard deviation %v must be positive", b)
	case kind != "normal" && !(a < b):
		p.errf(n, path, "low %v must be below high %v", a, b)
	case kind == "loguniform" && !(a > 0):
		p.errf(n, path, "low %v must be positive for a log-uniform distribution", a)
	case kind == "integer" && (a != math.Trunc(a) || b != math.Trunc(b)):
		p.errf(n, path, "bounds %v and %v must be integers", a, b)
	}
}

// checkDuplicates rejects a path swept twice.
func (p *specParser) checkDuplicates(s *Spec, root *yaml.Node) {
	seen := map[string]bool{}
	for _, path := range s.paramPaths() {
		if seen[path] {
			p.errf(root, path, "swept twice (in the grid and random params, or twice in one)")
		}
		seen[path] = true
	}
}

// paramPaths returns the swept paths: the grid's, then the random ones.
func (s *Spec) paramPaths() []string {
	var out []string
	for _, g := range s.Grid {
		out = append(out, g.Path)
	}
	if s.Random != nil {
		for _, d := range s.Random.Params {
			out = append(out, d.Path)
		}
	}
	return out
}

// countJobs returns the number of jobs as a float (no overflow).
func (s *Spec) countJobs() float64 {
	n := float64(s.Repeats)
	for _, g := range s.Grid {
		n *= float64(len(g.Values))
	}
	if s.Random != nil {
		n *= float64(s.Random.Samples)
	}
	return n
}
