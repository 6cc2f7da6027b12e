package mjref

import (
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// portKnown are the parity models whose short-horizon error with the port
// of MuJoCo's own solver is known to exceed the parity level where the
// converged answer's is within it, and why (docs/MODELS.md, "MJCF solver
// Newton").
var portKnown = map[string]string{
	"mujoco/test/engine/testdata/collision_convex/cylinder_box.xml": "a flat cylinder on a box: MuJoCo's multiccd rim contacts at step 2 follow the sign of a 1e-21 tilt at step 1 (MuJoCo parts from itself by 2.8e-8 at step 2 when that tilt changes by 1e-20)",
	"mujoco/model/composite/softbox.xml":                            "CG through contacts (the port follows MuJoCo to 8.5e-16 over the 70 steps before them, TestCompositeCGMuJoCo; through them, on the sparse path, 1.8e-7 from step 91): not resolved, as on the 3-box stack",
}

// portApart are the parity models that part from MuJoCo by more than the
// parity level with the converged solve and with the port, but further
// with the port (TestPortParity's log; docs/MODELS.md, "MJCF solver
// Newton"): TestPortSensitivity checks them with portKnown.
var portApart = map[string]string{
	"mujoco/test/testdata/model.xml":                                 "parts at a contact from step 25 either way",
	"mujoco/test/engine/testdata/collision_convex/stacked_boxes.xml": "the contact counts differ from step 11 either way",
	"mujoco/model/hammock/hammock.xml":                               "CG through contacts from state 1 (on the sparse path 8.9e-3 / 0.13 over 100 steps)",
}

// TestPortParity (STICTION_LONG=1) measures each parity model whose
// solver is MuJoCo's Newton or CG, from its initial and the parity
// table's perturbed state over its short horizon (horizonOf), twice: with
// the converged solve (scene contact.mujoco_newton: false, the MJCF
// default before the port) against MuJoCo's run warm-started by
// mj_forward at each recorded state, as the table compared it then, and
// with the port of MuJoCo's own solver (the MJCF default) against
// MuJoCo's run that keeps its warm start across steps (mj_step alone), as
// the table compares it now (solveFor). It logs both and fails when the
// port parts from MuJoCo by more than the parity level (1e-9) on a model
// that the converged solve keeps within it over a horizon of at least one
// step, but for the models of portKnown: the check that the port as the
// default keeps every model at least as close to MuJoCo.
func TestPortParity(t *testing.T) {
	if !long() {
		t.Skip("every parity model twice: set STICTION_LONG=1")
	}
	exe := tool(t)
	for _, c := range parityModels {
		t.Run(strings.TrimSuffix(c.file, ".xml"), func(t *testing.T) {
			if longOnly[c.file] {
				t.Skip("a long-only parity model")
			}
			t.Parallel()
			path := filepath.Join("testdata", c.file)
			init, err := Exec(exe, path, Options{Steps: shortSteps, Every: 1})
			if err != nil || init.Solver == "pgs" {
				t.Skip("no MuJoCo run, or PGS")
			}
			b, _, err := stiction(path)
			if err != nil {
				t.Skip("does not load")
			}
			if !b.Config.Contact.Newton {
				t.Skip("the port is not the default (contact.mujoco_newton: false)")
			}
			mp, err := NewMap(init, b.Model)
			if err != nil {
				t.Skip("no map")
			}
			rows := muJoCoRowContacts(b)
			for _, start := range parityStarts(init) {
				off, err := Exec(exe, path, Options{Steps: shortSteps, Every: 1, QPos: start.q, QVel: start.v})
				if err != nil {
					t.Fatal(err)
				}
				on, err := Exec(exe, path, Options{Steps: shortSteps, Every: 1, QPos: start.q, QVel: start.v, KeepWarm: true})
				if err != nil {
					t.Fatal(err)
				}
				conv := *b
				useConverged(&conv.Config.Contact)
				h, _, _ := horizonOf(off, rows && sameSolver(&conv, off))
				hOn, _, _ := horizonOf(on, rows && sameSolver(b, on))
				before, _, errOff := compareTrajectory(path, off, off, mp, h)
				after, first, errOn := compareTrajectory(path, on, on, mp, hOn)
				t.Logf("%s (%s): %s state, converged %.3g over %d steps (%v); port %.3g over %d steps (first over 1e-9 at step %d; %v)",
					c.file, on.Solver, start.name, before, h, errOff, after, hOn, first, errOn)
				if errOff == nil && h > 0 && before <= trajTol && (errOn != nil || !(after <= trajTol)) && portKnown[c.file] == "" {
					t.Errorf("%s, %s state: the port parts from MuJoCo by %.3g (%v) where the converged solve gives %.3g", c.file, start.name, after, errOn, before)
				}
			}
		})
	}
}

// portSelfPerturbation is the change of every velocity (m/s, rad/s) by
// which TestPortSensitivity moves MuJoCo's own start: the size of the
// round-off by which one engine's step differs from the other's.
const portSelfPerturbation = 1e-16

// TestPortSensitivity (STICTION_LONG=1) checks that the exceptions of
// portKnown and portApart are MuJoCo's own sensitivity: from each parity start, MuJoCo's
// keep-warm run (mj_step alone) is compared with MuJoCo's run from the
// same state with every velocity changed by portSelfPerturbation, over
// the short horizon, and with the port's run (compareTrajectory). It
// fails when the port parts from MuJoCo by more than the parity level
// where MuJoCo stays within it of itself: such a model's difference is
// the port's, not MuJoCo's sensitivity.
func TestPortSensitivity(t *testing.T) {
	if !long() {
		t.Skip("MuJoCo against itself on the exceptions of the port: set STICTION_LONG=1")
	}
	exe := tool(t)
	files := append(slices.Sorted(maps.Keys(portKnown)), slices.Sorted(maps.Keys(portApart))...)
	for _, file := range files {
		t.Run(strings.TrimSuffix(file, ".xml"), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", file)
			init, err := Exec(exe, path, Options{Steps: shortSteps, Every: 1, KeepWarm: true})
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := stiction(path)
			if err != nil {
				t.Fatal(err)
			}
			mp, err := NewMap(init, b.Model)
			if err != nil {
				t.Fatal(err)
			}
			for _, start := range parityStarts(init) {
				o := Options{Steps: shortSteps, Every: 1, KeepWarm: true, QPos: start.q, QVel: start.v}
				ref, err := Exec(exe, path, o)
				if err != nil {
					t.Fatal(err)
				}
				o.QVel = append([]float64(nil), start.v...)
				for i := range o.QVel {
					o.QVel[i] += portSelfPerturbation
				}
				moved, err := Exec(exe, path, o)
				if err != nil {
					t.Fatal(err)
				}
				self, selfAt := runsApart(ref, moved)
				port, portAt, err := compareTrajectory(path, ref, ref, mp, shortSteps)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s, %s state: MuJoCo from a start %g apart %.3g (first over 1e-9 at step %d); port %.3g (at step %d)",
					file, start.name, portSelfPerturbation, self, selfAt, port, portAt)
				if port > trajTol && !(self > trajTol) {
					t.Errorf("%s, %s state: the port parts from MuJoCo by %.3g where MuJoCo parts from itself by only %.3g", file, start.name, port, self)
				}
			}
		})
	}
}

// runsApart returns the largest qpos difference between two MuJoCo runs of
// one model over their common steps and the first step where it exceeds
// trajTol (−1 if none).
func runsApart(a, b *Run) (float64, int) {
	worst, first := 0.0, -1
	for k := 0; k < len(a.Steps) && k < len(b.Steps); k++ {
		for i, x := range a.Steps[k].QPos {
			d := math.Abs(x - b.Steps[k].QPos[i])
			if math.IsNaN(d) {
				d = math.Inf(1)
			}
			worst = math.Max(worst, d)
		}
		if first < 0 && worst > trajTol {
			first = k
		}
	}
	return worst, first
}

// TestPortDenseSparse checks the import's and the port's choices against
// MuJoCo 2.2.2 on every parity model that loads: Stiction runs the port of
// MuJoCo's Newton or CG exactly when MuJoCo's solver is Newton or CG, at
// every size, on MuJoCo's sparse path exactly where MuJoCo takes its own
// (mj_isSparse, reported by the tool; sim.MuJoCoSparse), and MuJoCo's PGS
// where MuJoCo's solver is PGS.
func TestPortDenseSparse(t *testing.T) {
	exe := tool(t)
	ran, sparse := 0, 0
	for _, c := range parityModels {
		path := modelPath(c.file)
		mj, err := Exec(exe, path, Options{Steps: 1, Every: 1})
		if err != nil {
			continue
		}
		b, _, err := stiction(path)
		if err != nil {
			continue
		}
		ran++
		if mj.NV >= 60 {
			sparse++
		}
		ct := b.Config.Contact
		port := mj.Solver != "pgs"
		switch {
		case ct.Newton != port || port && ct.CG != (mj.Solver == "cg"):
			t.Errorf("%s (MuJoCo's %s, nv %d): port %v (CG %v), want %v", c.file, mj.Solver, mj.NV, ct.Newton, ct.CG, port)
		case port && mj.NV > 0 && sim.MuJoCoSparse(b.Model.NV) != mj.Sparse: // nv 0 (composite/scene.xml, jacobian="sparse"): nothing to solve
			t.Errorf("%s (nv %d, Stiction's %d): the port's sparse path %v, MuJoCo's %v", c.file, mj.NV, b.Model.NV, sim.MuJoCoSparse(b.Model.NV), mj.Sparse)
		case mj.Solver == "pgs" && ct.PGSIterations != mj.Iterations:
			t.Errorf("%s: %d PGS iterations, MuJoCo's %d", c.file, ct.PGSIterations, mj.Iterations)
		}
	}
	if ran < len(parityModels)/2 || sparse < 8 {
		t.Errorf("only %d of %d parity models loaded in both engines, %d of them of at least 60 velocities", ran, len(parityModels), sparse)
	}
}
