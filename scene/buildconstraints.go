package scene

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// buildConstraints turns the validated joint limits and friction, actuators
// and constraints of s into a constraint.Set (nil if there are none), with
// defaults taken from the initial state st, and excludes collisions between
// the bodies that welds, balls and attachments join.
func buildConstraints(s *Scene, m *multibody.Model, st *multibody.State) (*constraint.Set, error) {
	set := &constraint.Set{}
	kin := multibody.NewWorkspace(m)
	kin.Update(st.Q, st.V)
	for i := range s.Bodies {
		if j := s.Bodies[i].Joint; j != nil {
			jointConstraints(set, m, m.BodyByName(s.Bodies[i].Name), j)
		}
	}
	tendonLimits(set, m, s.Tendons)
	for i := range s.Actuators {
		ac, err := actuator(m, s, &s.Actuators[i], i)
		if err != nil {
			return nil, fmt.Errorf("actuators[%d]: %w", i, err)
		}
		set.Actuators = append(set.Actuators, ac)
	}
	for i := range s.Constraints {
		if err := addConstraint(set, m, kin, &s.Constraints[i], i); err != nil {
			return nil, fmt.Errorf("constraints[%d]: %w", i, err)
		}
	}
	if set.Empty() {
		return nil, nil
	}
	set.ExcludeCollisions(m)
	return set, nil
}

// jointConstraints adds body b's joint limits, cone limit and friction.
func jointConstraints(set *constraint.Set, m *multibody.Model, b int, j *Joint) {
	name := m.Bodies[b].Name
	t := m.Bodies[b].Joint.Type
	if l := j.Limits; l != nil {
		cp := limitCompliance(l)
		if l.Lower != nil || l.Upper != nil {
			for k := range t.NV() {
				lim := constraint.Limit{Name: dofName(name+"/limit", k, t.NV()), Body: b, DOF: k, Lower: math.Inf(-1), Upper: math.Inf(1), Margin: valueOr(l.Margin, 0), Compliance: cp}
				if l.Lower != nil {
					lim.Lower = l.Lower[k]
				}
				if l.Upper != nil {
					lim.Upper = l.Upper[k]
				}
				set.Limits = append(set.Limits, lim)
			}
		}
		if l.Cone != nil {
			set.Cones = append(set.Cones, constraint.ConeLimit{Name: name + "/cone", Body: b, Angle: *l.Cone, Margin: valueOr(l.Margin, 0), Compliance: cp})
		}
	}
	if t == multibody.JointCompound {
		partConstraints(set, m, b, j)
	}
	if j.Friction != nil && *j.Friction > 0 {
		cp := softCompliance(j.FrictionSolRef, j.FrictionSolImp)
		if j.FrictionSolRef != nil {
			cp.Weight = valueOr(j.FrictionWeight, 0)
		}
		for k := range t.NV() {
			set.Frictions = append(set.Frictions, constraint.JointFriction{Name: dofName(name+"/friction", k, t.NV()), Body: b, DOF: k, Force: *j.Friction,
				Compliance: cp})
		}
	}
}

// limitCompliance returns the compliance of limits l: stiffness and
// dissipation, or MuJoCo's solref and solimp (default solimp when only
// solref is given).
func limitCompliance(l *Limits) constraint.Compliance {
	cp := constraint.Compliance{Stiffness: valueOr(l.Stiffness, 0), Dissipation: valueOr(l.Dissipation, 0)}
	if len(l.SolRef) == 2 {
		cp.SolImp = constraint.DefaultSolImp
		copy(cp.SolRef[:], l.SolRef)
		if len(l.SolImp) == 5 {
			copy(cp.SolImp[:], l.SolImp)
		}
		cp.Weight = valueOr(l.Weight, 0)
	}
	return cp
}

// softCompliance returns MuJoCo's soft constraint of solref and solimp
// (default solimp when only solref is given), or the zero Compliance
// without solref.
func softCompliance(solref, solimp []float64) constraint.Compliance {
	var cp constraint.Compliance
	if len(solref) == 2 {
		cp.SolImp = constraint.DefaultSolImp
		copy(cp.SolRef[:], solref)
		if len(solimp) == 5 {
			copy(cp.SolImp[:], solimp)
		}
	}
	return cp
}

// dofName appends "/k" to base for joints with more than one dof.
func dofName(base string, k, n int) string {
	if n == 1 {
		return base
	}
	return fmt.Sprintf("%s/%d", base, k)
}

// listItemName returns name, or list[i] when it is empty.
func listItemName(name, list string, i int) string {
	if name != "" {
		return name
	}
	return fmt.Sprintf("%s[%d]", list, i)
}

// signal converts a scene target (nil: constant 0).
func signal(t *Target) (constraint.Signal, error) {
	switch {
	case t == nil:
		return constraint.Constant(0), nil
	case t.Constant != nil:
		return constraint.Constant(*t.Constant), nil
	case t.Sine != nil:
		return constraint.Sine{Offset: t.Sine.Offset, Amplitude: t.Sine.Amplitude, Frequency: t.Sine.Frequency, Phase: t.Sine.Phase}, nil
	}
	return constraint.NewTable(t.Table)
}

// actuator converts a validated scene actuator.
func actuator(m *multibody.Model, s *Scene, a *Actuator, i int) (constraint.Actuator, error) {
	typ, err := constraint.ParseActuatorType(a.Type)
	if err != nil {
		return constraint.Actuator{}, err
	}
	sig, err := signal(a.Target)
	if err != nil {
		return constraint.Actuator{}, err
	}
	ac := constraint.Actuator{Name: listItemName(a.Name, "actuators", i), Type: typ, Body: m.BodyByName(a.Joint), DOF: intOr(a.DOF, 0),
		Gear: valueOr(a.Gear, 1), Kp: valueOr(a.Kp, 0), Kd: valueOr(a.Kd, 0), Effort: valueOr(a.Effort, 0), Target: sig}
	if r := a.CtrlRange; r != nil {
		ac.CtrlMin, ac.CtrlMax = r[0], r[1]
	}
	if typ == constraint.General {
		ac.Gain = valueOr(a.Gain, 1)
		copy(ac.Bias[:], a.Bias)
		copy(ac.GainAffine[:], a.GainAffine)
	}
	ac.Explicit = a.Explicit != nil && *a.Explicit
	if d := a.Dynamics; d != nil {
		if ac.Dyn, err = constraint.ParseActDynamics(d.Type); err != nil {
			return constraint.Actuator{}, err
		}
		if ac.Dyn == constraint.DynFilter {
			ac.DynTau = valueOr(d.TimeConst, 1)
		}
		if r := d.ActRange; r != nil {
			rr := *r
			ac.ActRange = &rr
		}
	}
	if typ == constraint.Muscle {
		pm := muscleParams(a.Muscle)
		ac.Muscle = &pm
		if a.Muscle != nil && a.Muscle.ActRange != nil {
			rr := *a.Muscle.ActRange
			ac.ActRange = &rr
		}
	}
	if a.SliderCrank != nil {
		ac.Transmission = sliderCrankOf(m, a.SliderCrank)
	}
	if a.Site != nil {
		ac.Transmission = siteTransmissionOf(m, a.Site)
	}
	if a.JointGear != nil {
		ac.Transmission = jointTransmissionOf(m, a)
	}
	if a.Adhesion != "" {
		ac.Transmission = adhesionOf(m, a)
	}
	if a.Tendon != "" {
		if t := s.Tendon(a.Tendon); len(t.Path) > 0 {
			ac.Transmission = tendonPath(m, t)
		} else {
			ac.Tendon = tendonTerms(m, t)
		}
	}
	return ac, nil
}

// sceneBody returns the model index of a body name, −1 for the world.
func sceneBody(m *multibody.Model, name string) int {
	if name == "world" {
		return -1
	}
	return m.BodyByName(name)
}

// addConstraint converts one validated scene constraint, with defaults from
// the kinematics of the initial state.
func addConstraint(set *constraint.Set, m *multibody.Model, kin *multibody.Workspace, c *Constraint, i int) error {
	name := listItemName(c.Name, "constraints", i)
	cp := constraint.Compliance{Stiffness: valueOr(c.Stiffness, 0), Dissipation: valueOr(c.Dissipation, 0)}
	var a, b int
	if len(c.Bodies) == 2 {
		a, b = sceneBody(m, c.Bodies[0]), sceneBody(m, c.Bodies[1])
	}
	xw := func(x int) spatial.Pose {
		if x < 0 {
			return spatial.PoseIdentity()
		}
		return kin.Pose(x)
	}
	switch c.Type {
	case "weld":
		fa, fb := xw(a).Inverse().Compose(xw(b)), spatial.PoseIdentity()
		if c.Frames != nil {
			fa, fb = pose(c.Frames[0]), pose(c.Frames[1])
		}
		wd := constraint.Weld{Name: name, BodyA: a, BodyB: b, FrameA: fa, FrameB: fb, Compliance: cp, RotStiffness: valueOr(c.RotStiffness, 0)}
		if c.SolRef != nil { // MuJoCo's soft weld; scale is its torquescale
			wd.Compliance = softCompliance(c.SolRef, c.SolImp)
			wd.Compliance.Weight = valueOr(c.Weight, 0)
			wd.TorqueScale = valueOr(c.Scale, 1)
		}
		set.Welds = append(set.Welds, wd)
	case "ball", "distance":
		pa, pb := xw(a).ApplyInv(xw(b).P), spatial.Vec3{}
		if c.Type == "distance" {
			pa = spatial.Vec3{}
		}
		if c.Points != nil {
			pa, pb = spatial.Vec3(c.Points[0]), spatial.Vec3(c.Points[1])
		}
		if c.Type == "ball" {
			if c.SolRef != nil {
				cp = softCompliance(c.SolRef, c.SolImp)
				cp.Weight = valueOr(c.Weight, 0)
			}
			set.Balls = append(set.Balls, constraint.Ball{Name: name, BodyA: a, BodyB: b, PointA: pa, PointB: pb, Compliance: cp})
			break
		}
		l := xw(b).Apply(pb).Sub(xw(a).Apply(pa)).Norm()
		if c.Length != nil {
			l = *c.Length
		}
		if !(l > 0) {
			return fmt.Errorf("distance: the points coincide initially; give length")
		}
		if c.SolRef != nil { // MuJoCo's soft row (its tendon equality on a two-site spatial tendon)
			cp = softCompliance(c.SolRef, c.SolImp)
			cp.Weight = valueOr(c.Weight, 0)
		}
		set.Distances = append(set.Distances, constraint.Distance{Name: name, BodyA: a, BodyB: b, PointA: pa, PointB: pb, Length: l, Compliance: cp})
	case "coupler":
		dofs := []int{0, 0}
		if c.DOFs != nil {
			dofs = c.DOFs
		}
		if c.SolRef != nil {
			cp = softCompliance(c.SolRef, c.SolImp)
			cp.Weight = valueOr(c.Weight, 0)
		}
		if c.Coefs != nil {
			cpl := constraint.Coupler{Name: name, Offset: valueOr(c.Offset, 0), Compliance: cp}
			for k, j := range c.Joints {
				dof := 0
				if c.DOFs != nil {
					dof = c.DOFs[k]
				}
				cpl.Terms = append(cpl.Terms, constraint.TendonTerm{Body: m.BodyByName(j), DOF: dof, Coef: c.Coefs[k]})
			}
			set.Couplers = append(set.Couplers, cpl)
			break
		}
		set.Couplers = append(set.Couplers, constraint.Coupler{Name: name, BodyI: m.BodyByName(c.Joints[0]), DOFI: dofs[0],
			BodyJ: m.BodyByName(c.Joints[1]), DOFJ: dofs[1], Ratio: valueOr(c.Ratio, 1), Offset: valueOr(c.Offset, 0),
			Scale: valueOr(c.Scale, 1), Compliance: cp})
	case "attach":
		at := constraint.Attachment{Name: name, Master: a, Body: b}
		if c.Point != nil {
			at.PointOnly, at.Point = true, spatial.Vec3(*c.Point)
		}
		set.Attachments = append(set.Attachments, at)
	case "prescribed":
		return addPrescribed(set, m, c, name)
	}
	return nil
}

// addPrescribed converts a prescribed motion.
func addPrescribed(set *constraint.Set, m *multibody.Model, c *Constraint, name string) error {
	b := m.BodyByName(c.Body)
	pr := constraint.Prescribed{Name: name, Body: b}
	if !constraint.IsFreeRoot(m, b) {
		pr.DOFs = c.DOFs
		if pr.DOFs == nil {
			for k := range m.Bodies[b].Joint.NV() {
				pr.DOFs = append(pr.DOFs, k)
			}
		}
	}
	for k := range c.Motion {
		sig, err := signal(&c.Motion[k])
		if err != nil {
			return err
		}
		pr.Motion = append(pr.Motion, sig)
	}
	set.Prescribed = append(set.Prescribed, pr)
	return nil
}

// muscleParams returns a scene muscle's parameters with MuJoCo 2.2.2's
// defaults for the missing ones (xml_native_reader.cc, the muscle
// shortcut); the length range is left as given (0, 0 when not) and acc0
// unset (setupMuscles fills them).
func muscleParams(mu *Muscle) constraint.MuscleParams {
	p := constraint.MuscleParams{TimeConst: [2]float64{0.01, 0.04}, Range: [2]float64{0.75, 1.05}, Force: -1, Scale: 200,
		LMin: 0.5, LMax: 1.6, VMax: 1.5, FPMax: 1.3, FVMax: 1.2}
	if mu == nil {
		return p
	}
	if mu.TimeConst != nil {
		p.TimeConst = *mu.TimeConst
	}
	if mu.Range != nil {
		p.Range = *mu.Range
	}
	if mu.LengthRange != nil {
		p.LengthRange = *mu.LengthRange
	}
	p.Force, p.Scale = valueOr(mu.Force, p.Force), valueOr(mu.Scale, p.Scale)
	p.LMin, p.LMax, p.VMax = valueOr(mu.LMin, p.LMin), valueOr(mu.LMax, p.LMax), valueOr(mu.VMax, p.VMax)
	p.FPMax, p.FVMax = valueOr(mu.FPMax, p.FPMax), valueOr(mu.FVMax, p.FVMax)
	return p
}

// setupMuscles computes what MuJoCo's compiler computes for each muscle
// of cfg: acc0 = ‖M⁻¹ moment‖ at the model's initial pose st.Q, at rest
// (set0 at qpos0: free bodies where the file puts them, not at the world
// origin, which made MuJoCo's activation.xml muscle's acc0 5.6% small),
// and the length range, when not given, by MuJoCo's simulation from there
// (sim.ActuatorLengthRange, mj_setLengthRange).
func setupMuscles(m *multibody.Model, cfg *sim.Config, st *multibody.State) error {
	set := cfg.Constraints
	if set == nil {
		return nil
	}
	kin := multibody.NewWorkspace(m)
	kin.Update(st.Q, make([]float64, m.NV))
	lro := sim.DefaultLengthRangeOptions()
	lro.Q0 = st.Q
	for i := range set.Actuators {
		ac := &set.Actuators[i]
		if ac.Muscle == nil {
			continue
		}
		acc0, err := ac.Acc0(m, kin, st.Q)
		if err != nil {
			return fmt.Errorf("actuators[%d] %q: acc0: %w", i, ac.Name, err)
		}
		ac.Muscle.Acc0 = acc0
		if ac.Muscle.LengthRange[0] < ac.Muscle.LengthRange[1] {
			continue
		}
		if ac.Muscle.LengthRange, err = sim.ActuatorLengthRange(m, *cfg, i, lro); err != nil {
			return fmt.Errorf("actuators[%d]: %w", i, err)
		}
	}
	return nil
}

// initialActivations gives the state the actuators' initial activations
// (Actuator.Act0; the simulator starts the others, and every one when
// none is given, at 0). cfg.Constraints has one actuator per scene
// actuator, in order.
func initialActivations(s *Scene, cfg *sim.Config, st *multibody.State) {
	for i, a := range s.Actuators {
		if a.Act0 == nil {
			continue
		}
		if st.Act == nil {
			st.Act = make([]float64, len(cfg.Constraints.Actuators))
		}
		st.Act[i] = *a.Act0
	}
}
