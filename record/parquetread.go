package record

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/stiction-sim/stiction/spatial"
)

// readParquetRun reads steps.parquet, trajectory.parquet and
// contacts.parquet of dir into r, as readSteps, readTrajectory and
// readContacts do for CSV.
func readParquetRun(dir string, r *Run) error {
	steps, err := parquet.ReadFile[StepRow](filepath.Join(dir, "steps.parquet"))
	if err != nil {
		return fmt.Errorf("record: %s: %w", filepath.Join(dir, "steps.parquet"), err)
	}
	r.StepColumns = slices.Clone(StepsHeader)
	for _, s := range steps {
		r.Steps = append(r.Steps, []float64{s.T, float64(s.Iterations), float64(s.LineSearchIterations), s.MomentumError,
			s.ComplementarityError, float64(s.Contacts), s.MaxPenetration, s.KineticEnergy, s.PotentialEnergy, math.NaN(), s.MaxSlip})
	}
	path := filepath.Join(dir, "trajectory.parquet")
	traj, err := parquet.ReadFile[TrajectoryRow](path)
	if err != nil {
		return fmt.Errorf("record: %s: %w", path, err)
	}
	index := make(map[string]int, len(r.Scene.Bodies))
	initial := make([]spatial.Pose, len(r.Scene.Bodies))
	for i, b := range r.Scene.Bodies {
		index[b.Name], initial[i] = i, b.Pose.Pose()
	}
	for i, t := range traj {
		b, ok := index[t.Body]
		if !ok {
			return fmt.Errorf("record: %s: row %d: column body: %q is not a body of scene.json", path, i+1, t.Body)
		}
		if n := len(r.Frames); n == 0 || r.Frames[n-1].T != t.T {
			r.Frames = append(r.Frames, Frame{T: t.T, Poses: slices.Clone(initial)})
		}
		r.Frames[len(r.Frames)-1].Poses[b] = spatial.Pose{P: spatial.Vec3{t.Px, t.Py, t.Pz}, R: spatial.Quat{W: t.Qw, X: t.Qx, Y: t.Qy, Z: t.Qz}}
	}
	path = filepath.Join(dir, "contacts.parquet")
	cs, err := parquet.ReadFile[ContactRow](path)
	if err != nil {
		return fmt.Errorf("record: %s: %w", path, err)
	}
	k := 0
	for i, c := range cs {
		for k < len(r.Frames) && r.Frames[k].T < c.T {
			k++
		}
		if k == len(r.Frames) || r.Frames[k].T != c.T {
			return fmt.Errorf("record: %s: row %d: column t: %v is not a time of trajectory.parquet", path, i+1, c.T)
		}
		r.Frames[k].Contacts = append(r.Frames[k].Contacts, Contact{
			BodyA: c.BodyA, BodyB: c.BodyB,
			Point: spatial.Vec3{c.Px, c.Py, c.Pz}, Normal: spatial.Vec3{c.Nx, c.Ny, c.Nz}, Phi: c.Phi,
			Impulse: [3]float64{c.ImpulseT1, c.ImpulseT2, c.ImpulseN}, Force: spatial.Vec3{c.Fx, c.Fy, c.Fz},
		})
	}
	return nil
}
