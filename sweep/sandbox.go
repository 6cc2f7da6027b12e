package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stiction-sim/stiction/model/embedded"
	"github.com/stiction-sim/stiction/runner"
)

// errNotCarried refuses a file that is neither in the job's bundle nor an
// embedded model.
var errNotCarried = errors.New("not among the files the job carries (a sweep job may read only its bundle and embedded models)")

// sandbox is a job's bundle written under a new directory, root, at the
// paths the files had on the sweep's machine (root+path).
type sandbox struct {
	root  string
	files map[string]bool // root+path of every file
	dirs  map[string]bool // root+dir of every directory holding one
	emb   string          // the embedded models' directory, once asked
}

// newSandbox writes the bundle of j (checked by DecodeJob) under a new
// temporary directory. A job without files needs none: it may read
// embedded models only.
func newSandbox(j Job) (*sandbox, error) {
	if len(j.Bundle) == 0 {
		return &sandbox{files: map[string]bool{}, dirs: map[string]bool{}}, nil
	}
	root, err := os.MkdirTemp("", "stiction-job-")
	if err != nil {
		return nil, fmt.Errorf("sweep: job bundle: %w", err)
	}
	sb := &sandbox{root: root, files: map[string]bool{}, dirs: map[string]bool{}}
	for _, f := range j.Bundle {
		p := root + f.Path
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			sb.remove()
			return nil, fmt.Errorf("sweep: job bundle: %w", err)
		}
		if err := os.WriteFile(p, f.Data, 0o600); err != nil {
			sb.remove()
			return nil, fmt.Errorf("sweep: job bundle: %w", err)
		}
		sb.files[p] = true
		for d := filepath.Dir(p); within(d, root) && !sb.dirs[d]; d = filepath.Dir(d) {
			sb.dirs[d] = true
		}
	}
	return sb, nil
}

// remove deletes the sandbox's directory.
func (sb *sandbox) remove() {
	if sb.root != "" {
		os.RemoveAll(sb.root)
	}
}

// access is the model.Options.Access of a job: a file of the bundle
// named by its path on the sweep's machine is read from the sandbox, a
// path already in the sandbox and the embedded models' files are
// allowed, and everything else is refused before it is looked at.
func (sb *sandbox) access(path string) (string, error) {
	p := filepath.Clean(path)
	if sb.files[p] || sb.dirs[p] {
		return p, nil
	}
	if q := sb.root + p; sb.root != "" && filepath.IsAbs(p) && (sb.files[q] || sb.dirs[q]) {
		return q, nil
	}
	if sb.emb == "" {
		if d, err := embedded.Dir(); err == nil {
			sb.emb = d
		}
	}
	if sb.emb != "" && within(p, sb.emb) {
		return p, nil
	}
	return "", fmt.Errorf("%s: %w", sb.unroot(path), errNotCarried)
}

// unroot removes the sandbox's directory from the paths in s, so that
// messages name the files as on the sweep's machine.
func (sb *sandbox) unroot(s string) string {
	if sb.root == "" {
		return s
	}
	return strings.ReplaceAll(s, sb.root, "")
}

// source returns the job's source confined to the sandbox.
func (sb *sandbox) source(j Job) runner.Source {
	src := j.Source
	src.Model.Model.Access = sb.access
	if src.Data != nil {
		src.Scene = sb.root + src.Scene // the scene's directory, for its relative paths
	}
	return src
}
