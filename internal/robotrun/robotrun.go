// Package robotrun runs a robot description file for a fixed time on a
// ground plane with zero control and reports what issue 27 asks of every
// loadable robot: no failed step, no NaN, ground penetration within the
// resting-depth estimate plus 1 mm, and no energy rise above 0.1 % of
// m·g·1 m.
package robotrun

import (
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/model"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// The acceptance bounds of issue 27.
const (
	// PenetrationSlack is added to the resting-depth estimate, m.
	PenetrationSlack = 1e-3
	// EnergyRiseFraction of m·g·1 m is the largest energy rise accepted.
	EnergyRiseFraction = 1e-3
)

// Outcome is the result of one run.
type Outcome struct {
	File     string
	Warnings []xmlutil.Warning // import warnings
	Scheme   string            // the scheme the run used
	Bodies   int
	Shapes   int     // collision shapes of the robot (the ground not counted)
	Dofs     int     // joint degrees of freedom (a floating root's six not counted); −1 if not built
	Mass     float64 // total mass of the moving bodies, kg
	Steps    int     // steps taken
	DT       float64 // time step, s
	// Failed is the step (1-based) at which the run stopped (an error or
	// a state that is not finite), 0 if it did not; Err says why.
	Failed int
	Err    error
	// FailedSteps counts the steps whose solve did not converge (stiction
	// run's failed steps: record.StepConverged); FirstFailed is the first
	// of them and FailStatus its solver status.
	FailedSteps, FirstFailed int
	FailStatus               solver.Status
	// Penetration is the deepest ground contact over the run, m; Estimate
	// the resting depth that the contact model predicts for the whole
	// weight on one contact (RestingDepth).
	Penetration, Estimate float64
	// Resting is the deepest ground contact over the last 0.1 s, m.
	Resting float64
	// EnergyRise is max_t E(t) − E(0), E kinetic plus potential, J; MGH is
	// m·g·1 m.
	EnergyRise, MGH float64
}

// OK reports whether the run met every bound.
func (o *Outcome) OK() bool {
	return o.Failed == 0 && o.Err == nil && o.FailedSteps == 0 && o.Penetration <= o.Estimate+PenetrationSlack && o.EnergyRise <= EnergyRiseFraction*o.MGH
}

// Summary is a one-line account of the outcome.
func (o *Outcome) Summary() string {
	if o.Failed > 0 || o.Err != nil {
		return fmt.Sprintf("stops at step %d (t = %.3f s): %v", o.Failed, float64(o.Failed)*o.DT, firstLine(o.Err))
	}
	verdict := "ok"
	if !o.OK() {
		verdict = "FAILS"
	}
	if o.Shapes == 0 {
		verdict += " (no collision shape: it falls through the ground)"
	}
	if o.FailedSteps > 0 {
		verdict += fmt.Sprintf(": %d failed steps (the first at t = %.3f s, %v)", o.FailedSteps, float64(o.FirstFailed)*o.DT, o.FailStatus)
	}
	return fmt.Sprintf("%s: %.3g kg, penetration %.2g m (bound %.2g; last 0.1 s %.2g), energy rise %.2g%% of m·g·1 m", verdict, o.Mass, o.Penetration, o.Estimate+PenetrationSlack, o.Resting, 100*o.EnergyRise/o.MGH)
}

// Run loads path (floating unless fixed), sets it on a ground half-space
// at z = 0 with its lowest collision shape touching it, and steps it for
// duration seconds with zero control, with the import's own scheme unless
// scheme is given.
func Run(path string, fixed bool, duration float64, scheme string, pkgs []string) *Outcome {
	o := &Outcome{File: path, Dofs: -1}
	opts := modelload.Options{Model: model.Options{Floating: !fixed, PackagePaths: pkgs}, Ground: true}
	s, im, err := modelload.Scene(path, nil, opts)
	if err != nil {
		o.Err = err
		return o
	}
	o.Warnings = im.Warnings
	if scheme != "" {
		s.Scheme = scheme
	}
	if err := placeOnGround(s); err != nil {
		o.Err = err
		return o
	}
	b, err := scene.Build(s)
	if err != nil {
		o.Err = err
		return o
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		o.Err = err
		return o
	}
	o.Scheme = sm.Scheme().Name
	o.measure(sm, b, s, duration)
	return o
}

// measure steps the simulator and records the outcome.
func (o *Outcome) measure(sm *sim.Simulator, b *scene.Built, s *scene.Scene, duration float64) {
	m := b.Model
	for _, bd := range m.Bodies {
		if bd.Tree >= 0 {
			o.Mass += bd.Inertia.Mass
		}
	}
	o.Bodies = len(m.Bodies)
	for _, gm := range m.Geometries {
		if m.Bodies[gm.Body].Name != groundName(s) {
			o.Shapes++
		}
	}
	o.Dofs = m.NV
	for _, tr := range m.Trees {
		if m.Bodies[tr.Bodies[0]].Joint.Type == multibody.JointFree {
			o.Dofs -= 6
		}
	}
	g := m.Gravity.Norm()
	o.MGH = o.Mass * g
	o.Estimate = RestingDepth(s, o.Mass, g)
	ground := m.BodyByName(groundName(s))
	e0 := sm.PotentialEnergy() + m.KineticEnergy(b.State)
	o.DT = s.DT
	n := int(math.Round(duration / s.DT))
	for i := range n {
		st, err := sm.Step()
		if err == nil && !finite(b.State) {
			err = fmt.Errorf("NaN or Inf in the state")
		}
		if err != nil {
			o.Failed, o.Err = i+1, err
			return
		}
		o.Steps++
		if st.Status != solver.Converged || !st.NewtonConverged {
			if o.FailedSteps == 0 {
				o.FirstFailed, o.FailStatus = i+1, st.Status
			}
			o.FailedSteps++
		}
		o.EnergyRise = math.Max(o.EnergyRise, st.KineticEnergy+st.PotentialEnergy-e0)
		last := i >= n-int(math.Round(0.1/s.DT))
		for _, pr := range sm.Contacts() {
			if pr.BodyA == ground || pr.BodyB == ground {
				o.Penetration = math.Max(o.Penetration, -pr.Phi)
				if last {
					o.Resting = math.Max(o.Resting, -pr.Phi)
				}
			}
		}
	}
}

// RestingDepth is the depth at which a contact carrying the weight m g
// rests with the default material on the ground's, also the default
// (contact.Combine: k in series, k/2), by SAP eq. 29: R = max(near-rigid,
// compliant), φ = R γ (δt + τd) with γ = m g δt, the larger of the
// near-rigid depth β² g δt (δt + τd)/(4π²) (load-aware, per unit weight)
// and the compliant depth m g/k. It is an upper bound for a robot that
// rests on several contacts.
func RestingDepth(s *scene.Scene, mass, g float64) float64 {
	sm := s.Materials[model.DefaultMaterial]
	one := contact.Material{Stiffness: *sm.Stiffness, Dissipation: *sm.Dissipation}
	mat := contact.Combine(one, one)
	k, td := mat.Stiffness, mat.Dissipation
	beta := *s.Contact.Beta
	near := beta * beta * g * s.DT * (s.DT + td) / (4 * math.Pi * math.Pi)
	return math.Max(near, mass*g/k)
}

// groundName is the name of the ground body that modelload's Ground
// option added: the scene's first body ("ground" unless the robot has a
// link of that name).
func groundName(s *scene.Scene) string { return s.Bodies[0].Name }

// placeOnGround raises or lowers the robot (its bodies without a joint and
// its joints to the world) so that its lowest collision shape, other than
// the ground, touches z = 0 at q0.
func placeOnGround(s *scene.Scene) error {
	m, st, err := scene.BuildModel(s)
	if err != nil {
		return err
	}
	kin := multibody.NewWorkspace(m)
	kin.Update(st.Q, st.V)
	low := math.Inf(1)
	for _, gm := range m.Geometries {
		if gm.Body < 0 || m.Bodies[gm.Body].Name == groundName(s) || gm.Shape.Kind == geometry.HalfSpace {
			continue
		}
		box := gm.Shape.AABB(kin.Pose(gm.Body).Compose(gm.Pose))
		low = math.Min(low, box.Min[2])
	}
	if math.IsInf(low, 1) {
		return nil // no collision shape
	}
	for i := range s.Bodies {
		b := &s.Bodies[i]
		switch {
		case i == 0: // the ground
		case b.Joint == nil:
			b.Pose.Position = raise(b.Pose.Position, -low)
		case b.Joint.Parent == "" || b.Joint.Parent == "world":
			if b.Joint.ParentFrame == nil {
				b.Joint.ParentFrame = &scene.Pose{}
			}
			b.Joint.ParentFrame.Position = raise(b.Joint.ParentFrame.Position, -low)
		}
	}
	return nil
}

func raise(p *scene.Vec, dz float64) *scene.Vec {
	var v scene.Vec
	if p != nil {
		v = *p
	}
	v[2] += dz
	return &v
}

func finite(st *multibody.State) bool {
	for _, x := range st.Q {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	for _, x := range st.V {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func firstLine(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// Files returns the URDF files under dir, sorted.
func Files(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".urdf") {
			out = append(out, p)
		}
		return err
	})
	sort.Strings(out)
	return out, err
}

// Fixed reports whether the example-robot-data file rel (its path in the
// repository) describes a robot that stands on a fixed base: arms, hands
// and pendulums, which are run welded to the world; every other robot
// (legged, humanoid, mobile, flying, underwater) is run floating.
func Fixed(rel string) bool {
	for _, p := range fixedBase {
		if strings.Contains(rel, p) {
			return true
		}
	}
	return false
}

// fixedBase are path fragments of the fixed-base robots of
// example-robot-data.
var fixedBase = []string{
	"ur_description/", "z1_description/", "panda_description/", "kinova_description/",
	"allegro_hand_description/", "double_pendulum_description/", "finger_edu_description/",
	"bravo7_description/urdf/bravo7", "talos_data/robots/talos_left_arm", "baxter_description/",
	"asr_twodof_description/",
}
