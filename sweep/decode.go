package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// maxWorkers bounds a job's island-solver workers (Source.Workers).
const maxWorkers = 1024

// sweepIDRE is what a sweep ID looks like (planID): it names subjects,
// consumers and run directories.
var sweepIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// JobError says why a message is not a job a worker runs; it names the
// field, never a file's content.
type JobError struct {
	Field string // the job's field, "" for the whole message
	Msg   string
}

func (e *JobError) Error() string {
	if e.Field == "" {
		return "sweep: not a job: " + e.Msg
	}
	return "sweep: not a job: " + e.Field + ": " + e.Msg
}

// DecodeJob decodes and checks a job message as a worker receives it: at
// most MaxJobBytes, JSON with only the fields of Job, a sweep ID, indices
// and worker count in range, an absolute clean scene path when the scene's
// text is given, and bundled files at absolute clean paths, each once,
// whose content has its SHA-256. It never reads a file.
func DecodeJob(data []byte) (Job, error) {
	var j Job
	if len(data) > MaxJobBytes {
		return j, &JobError{Msg: fmt.Sprintf("%d bytes, more than the limit of %d", len(data), MaxJobBytes)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return Job{}, &JobError{Msg: "JSON: " + cut(err.Error(), 200)}
	}
	if dec.More() {
		return Job{}, &JobError{Msg: "more than one JSON value"}
	}
	if err := j.check(); err != nil {
		return Job{}, err
	}
	return j, nil
}

// check checks the fields of a decoded job.
func (j *Job) check() error {
	bad := func(field, format string, args ...any) error {
		return &JobError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case !sweepIDRE.MatchString(j.Sweep):
		return bad("Sweep", "want 1 to 64 letters, digits, '-' or '_'")
	case j.Index < 0:
		return bad("Index", "%d is negative", j.Index)
	case j.Repeat < 0:
		return bad("Repeat", "%d is negative", j.Repeat)
	case j.Source.Scene == "" || strings.ContainsRune(j.Source.Scene, 0):
		return bad("Source.Scene", "empty, or holds a NUL byte")
	case j.Source.Data != nil && !cleanAbs(j.Source.Scene):
		return bad("Source.Scene", "a scene given by its text needs an absolute, clean path")
	case j.Source.Workers < 0 || j.Source.Workers > maxWorkers:
		return bad("Source.Workers", "%d is not in [0, %d]", j.Source.Workers, maxWorkers)
	}
	seen := make(map[string]bool, len(j.Bundle))
	for i, f := range j.Bundle {
		field := fmt.Sprintf("Bundle[%d]", i)
		if !cleanAbs(f.Path) {
			return bad(field+".Path", "want an absolute, clean path")
		}
		if seen[f.Path] {
			return bad(field+".Path", "a second file at this path")
		}
		seen[f.Path] = true
		sum := sha256.Sum256(f.Data)
		if f.SHA256 != hex.EncodeToString(sum[:]) {
			return bad(field+".SHA256", "does not match the file's content")
		}
	}
	return nil
}

// cleanAbs reports whether p is an absolute, clean path without NUL
// bytes.
func cleanAbs(p string) bool {
	return filepath.IsAbs(p) && filepath.Clean(p) == p && !strings.ContainsRune(p, 0)
}
