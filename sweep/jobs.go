package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/scene"
)

// Job is one run of a sweep: the scene with the spec's overrides and the
// job's parameter values.
type Job struct {
	Sweep    string        // sweep ID (see Plan)
	Index    int           // 0-based position in the sweep
	Repeat   int           // 0-based repeat of the same parameters
	Params   []string      // values of the swept paths, in Plan.Paths order
	Source   runner.Source // the scene with every override, ready to build
	KeepRuns bool          // write the run directory
	// Bundle holds the files the scene reads (includes, meshes), which a
	// worker reads instead of its own disk (see RunJob).
	Bundle []File `json:",omitempty"`
}

// Plan is a spec expanded into its jobs.
type Plan struct {
	ID      string   // sweep ID: the name and a hash of the jobs, so that a restart of the same sweep finds its results
	Name    string   // the spec's name
	Paths   []string // swept --set paths: grid axes, then random params
	Outputs []string // statistics in the table
	Jobs    []Job
	Spec    *Spec
}

func embeddedScene(name string) ([]byte, bool) { return scene.Embedded(name) }

// Expand builds the sweep's jobs: every grid point (the first axis
// varying slowest) with every random sample, each repeated Repeats times.
// Random samples are drawn in order from a PCG generator seeded with
// Random.Seed, so a spec always gives the same jobs. It reads the scene
// file (jobs carry its text, so that workers elsewhere need no copy) and
// checks every parameter value against the scene (Check).
func (s *Spec) Expand() (*Plan, error) {
	base, err := runner.NewSource(s.Scene, s.Sets, 0)
	if err != nil {
		return nil, &SpecError{File: s.File, Path: "scene", Msg: err.Error()}
	}
	p := &Plan{Name: s.Name, Paths: s.paramPaths(), Outputs: s.Outputs, Spec: s}
	if len(p.Outputs) == 0 {
		p.Outputs = Statistics
	}
	samples := s.samples()
	points := [][]string{nil}
	for _, g := range s.Grid {
		var next [][]string
		for _, pt := range points {
			for _, v := range g.Values {
				next = append(next, append(append([]string(nil), pt...), v))
			}
		}
		points = next
	}
	for _, pt := range points {
		for _, smp := range samples {
			vals := append(append([]string(nil), pt...), smp...)
			for r := range s.Repeats {
				src := base
				src.Sets = append(append([]string(nil), base.Sets...), setArgs(p.Paths, vals)...)
				p.Jobs = append(p.Jobs, Job{Index: len(p.Jobs), Repeat: r, Params: vals, Source: src, KeepRuns: s.KeepRuns})
			}
		}
	}
	rec := newRecorder()
	if err := p.check(rec); err != nil {
		return nil, err
	}
	if err := p.attach(rec); err != nil {
		return nil, err
	}
	p.ID = planID(p)
	for i := range p.Jobs {
		p.Jobs[i].Sweep = p.ID
	}
	return p, nil
}

// attach gives every job the files recorded while the scene was checked,
// and checks that a job fits in a message.
func (p *Plan) attach(rec *recorder) error {
	files, err := rec.bundle()
	if err != nil {
		return &SpecError{File: p.Spec.File, Path: "scene", Msg: err.Error()}
	}
	for i := range p.Jobs {
		p.Jobs[i].Bundle = files
	}
	data, err := json.Marshal(p.Jobs[len(p.Jobs)-1])
	if err != nil {
		return err
	}
	if len(data) > MaxJobBytes {
		return &SpecError{File: p.Spec.File, Path: "scene", Msg: fmt.Sprintf("a job with the %d files the scene reads is %d bytes, more than the limit of %d", len(files), len(data), MaxJobBytes)}
	}
	return nil
}

// samples draws the random parameter sets; one empty set without random.
func (s *Spec) samples() [][]string {
	if s.Random == nil {
		return [][]string{nil}
	}
	rng := rand.New(rand.NewPCG(s.Random.Seed, 0x5eed))
	out := make([][]string, s.Random.Samples)
	for k := range out {
		for _, d := range s.Random.Params {
			out[k] = append(out[k], d.draw(rng))
		}
	}
	return out
}

// draw returns one value of the distribution, formatted for --set.
func (d Dist) draw(rng *rand.Rand) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	switch d.Kind {
	case "choice":
		return d.Set[rng.IntN(len(d.Set))]
	case "integer":
		lo, hi := int64(d.Args[0]), int64(d.Args[1])
		return strconv.FormatInt(lo+rng.Int64N(hi-lo+1), 10)
	case "normal":
		return f(d.Args[0] + d.Args[1]*rng.NormFloat64())
	case "loguniform":
		la, lb := math.Log(d.Args[0]), math.Log(d.Args[1])
		return f(math.Exp(la + (lb-la)*rng.Float64()))
	}
	return f(d.Args[0] + (d.Args[1]-d.Args[0])*rng.Float64())
}

// setArgs returns path=value for each swept path.
func setArgs(paths, vals []string) []string {
	out := make([]string, len(paths))
	for i := range paths {
		out[i] = paths[i] + "=" + vals[i]
	}
	return out
}

// planID names the sweep by its name and a hash of everything its jobs
// run.
func planID(p *Plan) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.Encode(p.Paths)
	enc.Encode(p.Outputs)
	for _, j := range p.Jobs {
		enc.Encode(j)
	}
	name := []byte{}
	for _, c := range []byte(p.Name) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			name = append(name, c)
		}
		if len(name) == 24 {
			break
		}
	}
	if len(name) == 0 {
		name = []byte("sweep")
	}
	return string(name) + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// check builds the scene with the spec's overrides alone, then with each
// distinct value of each swept path alone, then the first job, and reports
// what the scene rejects, naming the spec field and the value. rec
// records the files the builds read.
func (p *Plan) check(rec *recorder) error {
	s := p.Spec
	base := p.Jobs[0].Source
	base.Model.Model.Access = rec.access
	base.Sets = s.Sets
	if _, err := base.Build(); err != nil {
		field := "scene"
		if len(s.Sets) > 0 {
			field = "sets"
		}
		return &SpecError{File: s.File, Path: field, Msg: err.Error()}
	}
	var errs []error
	for i, path := range p.Paths {
		seen := map[string]bool{}
		for _, j := range p.Jobs {
			v := j.Params[i]
			if seen[v] {
				continue
			}
			seen[v] = true
			src := base
			src.Sets = append(append([]string(nil), s.Sets...), path+"="+v)
			if _, err := src.Build(); err != nil {
				errs = append(errs, &SpecError{File: s.File, Path: p.fieldOf(i), Msg: fmt.Sprintf("value %s: %v", v, err)})
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	first := p.Jobs[0].Source
	first.Model.Model.Access = rec.access
	if _, err := first.Build(); err != nil {
		return &SpecError{File: s.File, Msg: fmt.Sprintf("the first job (%v) does not build: %v", setArgs(p.Paths, p.Jobs[0].Params), err)}
	}
	return nil
}

// fieldOf names the spec field of swept path i.
func (p *Plan) fieldOf(i int) string {
	if i < len(p.Spec.Grid) {
		return "grid." + p.Paths[i]
	}
	return "random.params." + p.Paths[i]
}
