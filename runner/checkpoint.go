package runner

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/sim"
)

// CheckpointVersion is the version of the run checkpoint format.
const CheckpointVersion = 1

// Checkpoint is a run stopped after a step: how to build its scene, the
// simulator's snapshot, the statistics so far and the sizes of its CSV
// files, so that Resume continues the run and its files exactly. It is
// encoded with encoding/gob (self-describing; a field added later decodes
// as its zero value from an older file).
type Checkpoint struct {
	Version   int
	Source    Source
	Offsets   record.Offsets     // sizes of steps.csv, trajectory.csv, contacts.csv, constraints.csv, joints.csv
	Acc       record.Accumulator // statistics of the steps taken
	WallTimeS float64            // stepping time so far, s
	Sim       *sim.Checkpoint
}

// CheckpointDir is the directory of a run directory's checkpoints.
const CheckpointDir = "checkpoints"

// CheckpointPath returns the path of the checkpoint after step of the run
// directory out.
func CheckpointPath(out string, step int) string {
	return filepath.Join(out, CheckpointDir, fmt.Sprintf("step-%09d.ckpt", step))
}

// checkpoint writes the run's checkpoint after its current step.
func (r *run) checkpoint() error {
	off, err := r.w.Offsets()
	if err != nil {
		return err
	}
	c := &Checkpoint{Version: CheckpointVersion, Source: *r.o.Source, Offsets: off, Acc: r.acc,
		WallTimeS: r.wall.Seconds(), Sim: r.sim.Checkpoint()}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(c); err != nil {
		return fmt.Errorf("runner: checkpoint: %w", err)
	}
	path := CheckpointPath(r.o.Out, c.Sim.Step)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("runner: checkpoint: %w", err)
	}
	return record.WriteFileAtomic(path, buf.Bytes())
}

// ReadCheckpoint reads a checkpoint file.
func ReadCheckpoint(path string) (*Checkpoint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	var c Checkpoint
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&c); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("runner: %s is not a checkpoint: %w", path, err)
	}
	if c.Version != CheckpointVersion {
		return nil, fmt.Errorf("runner: %s: checkpoint version %d, this build reads version %d", path, c.Version, CheckpointVersion)
	}
	if c.Sim == nil {
		return nil, fmt.Errorf("runner: %s: checkpoint has no simulator state", path)
	}
	return &c, nil
}

// RunDir returns the run directory of a checkpoint file written by a run
// (the parent of its checkpoints directory).
func RunDir(checkpointPath string) string {
	return filepath.Dir(filepath.Dir(checkpointPath))
}

// CopyRun copies what a resumed run continues from (scene.json and the CSV
// files up to the checkpoint's offsets) from the run directory src to dst.
func CopyRun(src, dst string, off record.Offsets) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	files := []string{"steps.csv", "trajectory.csv", "contacts.csv", "constraints.csv", "joints.csv", "scene.json"}
	for i, name := range files {
		n := int64(-1)
		if i < len(off) {
			n = off[i]
		}
		if err := copyPrefix(filepath.Join(src, name), filepath.Join(dst, name), n); err != nil {
			return fmt.Errorf("runner: %w", err)
		}
	}
	// sensors.csv, when the run has one, is copied whole: the resumed run
	// keeps its rows up to the checkpoint's time (record.CreateSensors).
	if _, err := os.Stat(filepath.Join(src, record.SensorsFile)); err == nil {
		if err := copyPrefix(filepath.Join(src, record.SensorsFile), filepath.Join(dst, record.SensorsFile), -1); err != nil {
			return fmt.Errorf("runner: %w", err)
		}
	}
	return nil
}

// copyPrefix copies the first n bytes of src (all of it for n < 0) to dst.
func copyPrefix(src, dst string, n int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	var r io.Reader = in
	if n >= 0 {
		r = io.LimitReader(in, n)
	}
	got, err := io.Copy(out, r)
	if err == nil && n >= 0 && got != n {
		err = fmt.Errorf("%s has %d bytes, the checkpoint needs %d", src, got, n)
	}
	return errors.Join(err, out.Close())
}
