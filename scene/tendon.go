package scene

import (
	"fmt"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
)

// Tendon is a fixed tendon (MuJoCo's <fixed>, docs/SCENES.md#tendons): a
// length L = Σ coef_k q_k over joint coordinates, with a spring–damper
// f = −stiffness (L − rest_length) − damping L̇ acting on each coordinate
// as coef_k f, optional limits lower ≤ L ≤ upper, and actuators that name
// it (Actuator.Tendon) acting along it.
//
// A spatial tendon (MuJoCo's <spatial>) gives Path instead of Joints: its
// length L(q) is that of a path through sites on bodies, wrapping over
// spheres and cylinders (package tendon); the spring–damper acts on the
// joints through the path's Jacobian G as Gᵀ f.
type Tendon struct {
	Name   string        `yaml:"name"`
	Joints []TendonJoint `yaml:"joints,omitempty"`
	Path   []TendonSite  `yaml:"path,omitempty"`
	// Stiffness (N/m or N·m/rad per unit of L, ≥ 0), Damping (≥ 0) and
	// RestLength (default 0; a spatial tendon's: its length in the
	// initial state) make the tendon a spring–damper.
	Stiffness  *float64 `yaml:"stiffness,omitempty"`
	Damping    *float64 `yaml:"damping,omitempty"`
	RestLength *float64 `yaml:"rest_length,omitempty"`
	// Limits bound L: lower and upper (one may be omitted), stiffness and
	// dissipation as a joint's limits (near-rigid by default).
	Limits *TendonLimits `yaml:"limits,omitempty"`
}

// TendonJoint is one term coef·q of a tendon: the coordinate of degree of
// freedom dof (default 0) of the joint of body joint (revolute, prismatic,
// planar, universal, or a revolute or prismatic part of a compound joint).
type TendonJoint struct {
	Joint string  `yaml:"joint"`
	DOF   *int    `yaml:"dof,omitempty"`
	Coef  float64 `yaml:"coef"`
}

// TendonLimits bound a tendon's length; stiffness, dissipation, solref
// and solimp as a joint's Limits.
type TendonLimits struct {
	Lower       *float64  `yaml:"lower,omitempty"`
	Upper       *float64  `yaml:"upper,omitempty"`
	Stiffness   *float64  `yaml:"stiffness,omitempty"`
	Dissipation *float64  `yaml:"dissipation,omitempty"`
	SolRef      []float64 `yaml:"solref,omitempty"`
	SolImp      []float64 `yaml:"solimp,omitempty"`
	// Weight, with SolRef, fixes the weight w of the violated limit's
	// R = (1 − d)/d · w: MuJoCo's tendon_invweight0 (G M⁻¹ Gᵀ at qpos0),
	// which the MJCF importer sets; default the Delassus estimate at each
	// step's start.
	Weight *float64 `yaml:"weight,omitempty"`
	// Margin (default 0) is MuJoCo's tendon margin: each bound acts within
	// Margin of it, on its distance less Margin (constraint.TendonLimit).
	Margin *float64 `yaml:"margin,omitempty"`
}

// Tendon returns the tendon called name, or nil.
func (s *Scene) Tendon(name string) *Tendon {
	for i := range s.Tendons {
		if s.Tendons[i].Name == name {
			return &s.Tendons[i]
		}
	}
	return nil
}

// tendons checks the tendons list.
func (v *validator) tendons(s *Scene) {
	seen := map[string]int{}
	for i := range s.Tendons {
		t := &s.Tendons[i]
		p := indexPath("tendons", i)
		if t.Name == "" {
			v.add(p+".name", "missing (required: actuators name their tendon)")
		}
		v.listName(p, t.Name, seen, i)
		switch {
		case len(t.Path) > 0 && len(t.Joints) > 0:
			v.add(p, "joints and path given: a tendon is fixed (joints) or spatial (path)")
		case len(t.Path) > 0:
			v.spatialTendon(p, t, s.Bodies)
		case len(t.Joints) == 0:
			v.add(p+".joints", "empty: give at least one {joint, coef}, or a path")
		}
		for k, j := range t.Joints {
			jp := indexPath(p+".joints", k)
			if j.Joint == "" {
				v.add(jp+".joint", "missing (required: the body whose joint coordinate enters the tendon)")
			} else if b := v.bodyRef(jp+".joint", j.Joint, s.Bodies, false); b >= 0 {
				v.scalarDOF(jp+".joint", s.Bodies, b, intOr(j.DOF, 0), jp+".dof")
			}
			if !finite(j.Coef) {
				v.add(jp+".coef", "%s must be finite", fnum(j.Coef))
			}
		}
		if t.Stiffness != nil {
			v.nonNegative(p+".stiffness", *t.Stiffness)
		}
		if t.Damping != nil {
			v.nonNegative(p+".damping", *t.Damping)
		}
		if t.RestLength != nil && !finite(*t.RestLength) {
			v.add(p+".rest_length", "%s must be finite", fnum(*t.RestLength))
		}
		if l := t.Limits; l != nil {
			if l.Lower == nil && l.Upper == nil {
				v.add(p+".limits", "give lower, upper or both")
			}
			if l.Lower != nil && l.Upper != nil && *l.Lower > *l.Upper {
				v.add(p+".limits", "lower %s above upper %s", fnum(*l.Lower), fnum(*l.Upper))
			}
			v.limitCompliance(p+".limits", l.Stiffness, l.Dissipation, l.SolRef, l.SolImp)
			if l.Weight != nil {
				v.positive(p+".limits.weight", *l.Weight)
			}
		}
	}
}

// tendonTerms converts a validated tendon's joints.
func tendonTerms(m *multibody.Model, t *Tendon) []constraint.TendonTerm {
	out := make([]constraint.TendonTerm, len(t.Joints))
	for k, j := range t.Joints {
		out[k] = constraint.TendonTerm{Body: m.BodyByName(j.Joint), DOF: intOr(j.DOF, 0), Coef: j.Coef}
	}
	return out
}

// tendonForces returns the spring–dampers of the tendons with a stiffness
// or damping.
// A spatial tendon's rest length defaults to its length in the initial
// state st (MuJoCo: at qpos_spring).
func tendonForces(m *multibody.Model, st *multibody.State, ts []Tendon) ([]forces.Element, error) {
	var out []forces.Element
	for i := range ts {
		t := &ts[i]
		k, d := valueOr(t.Stiffness, 0), valueOr(t.Damping, 0)
		if k == 0 && d == 0 {
			continue
		}
		if len(t.Path) > 0 {
			p := tendonPath(m, t)
			rest := 0.0
			if t.RestLength != nil {
				rest = *t.RestLength
			} else {
				ws := multibody.NewWorkspace(m)
				ws.Update(st.Q, st.V)
				rest = p.Length(ws)
			}
			out = append(out, &forces.SpatialTendon{Path: p, Stiffness: k, Damping: d, RestLength: rest})
			continue
		}
		e := &forces.FixedTendon{Stiffness: k, Damping: d, RestLength: valueOr(t.RestLength, 0)}
		for _, j := range t.Joints {
			c, ok := forces.NewTendonCoord(m, m.BodyByName(j.Joint), intOr(j.DOF, 0), j.Coef)
			if !ok {
				return nil, fmt.Errorf("tendons[%d] %q: joint %q dof %d is not a scalar coordinate", i, t.Name, j.Joint, intOr(j.DOF, 0))
			}
			e.Terms = append(e.Terms, c)
		}
		out = append(out, e)
	}
	return out, nil
}

// tendonLimits adds the tendons' limits to set.
func tendonLimits(set *constraint.Set, m *multibody.Model, ts []Tendon) {
	for i := range ts {
		t := &ts[i]
		l := t.Limits
		if l == nil {
			continue
		}
		tl := constraint.TendonLimit{Name: t.Name + "/limit", Terms: tendonTerms(m, t),
			Lower: valueOr(l.Lower, math.Inf(-1)), Upper: valueOr(l.Upper, math.Inf(1)), Margin: valueOr(l.Margin, 0),
			Compliance: limitCompliance(&Limits{Stiffness: l.Stiffness, Dissipation: l.Dissipation, SolRef: l.SolRef, SolImp: l.SolImp, Weight: l.Weight})}
		if len(t.Path) > 0 {
			tl.Path = tendonPath(m, t)
		}
		set.TendonLimits = append(set.TendonLimits, tl)
	}
}

// tendonNames lists the tendon names (for messages).
func tendonNames(s *Scene) []string {
	var out []string
	for _, t := range s.Tendons {
		out = append(out, t.Name)
	}
	return slices.Clip(out)
}
