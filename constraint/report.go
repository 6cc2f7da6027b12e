package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// Type is the type of a constraint in a Report.
type Type uint8

const (
	TypeLimit       Type = iota // Limit (both bounds: impulse γ_lower − γ_upper on the coordinate)
	TypeCone                    // ConeLimit
	TypeWeld                    // Weld
	TypeBall                    // Ball
	TypeDistance                // Distance
	TypeCoupler                 // Coupler
	TypeActuator                // Actuator
	TypeFriction                // JointFriction
	TypeAttachment              // Attachment (reported by package sim)
	TypePrescribed              // Prescribed (reported by package sim)
	TypeTendonLimit             // TendonLimit (as Limit: γ_lower − γ_upper along the tendon)
)

var typeNames = [...]string{"limit", "cone", "weld", "ball", "distance", "coupler", "actuator", "friction", "attach", "prescribed", "tendon-limit"}

// String returns the type's name, as in constraints.csv.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "Type(?)"
}

// State says what a constraint did in a step.
type State uint8

const (
	// Inactive: a limit that did not push (γ = 0).
	Inactive State = iota
	// Active: a limit that pushed, a bilateral constraint, an actuator below
	// its effort limit, joint friction that stuck, an attachment or a
	// prescribed motion.
	Active
	// Saturated: an actuator at its effort limit (|γ| = e δt), or joint
	// friction that slid (|γ| = τ_f δt).
	Saturated
)

var stateNames = [...]string{"inactive", "active", "saturated"}

// String returns "inactive", "active" or "saturated".
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "State(?)"
}

// MaxRows is the largest number of impulse rows of one constraint (a weld).
const MaxRows = 6

// Report is one constraint's outcome in a step.
type Report struct {
	Type Type
	Item int    // index in its Set list
	Name string // the item's name
	Rows int    // impulse rows used
	// Impulse holds the constraint impulse γ over the step, per row (N·s or
	// N·m·s): for weld, ball and distance the impulse on body B (world
	// frame; weld rows 3–5 angular); for limits, couplers, actuators and
	// friction the generalized impulse on the coordinate along the row
	// (actuators: the actuator force impulse, before the gear); for
	// attachments the impulse of the master on the attached body (ω rows
	// first, as its velocity); for prescribed motions f_ρ δt per moved
	// coordinate.
	Impulse [MaxRows]float64
	// Violation is the constraint error |g(q0)| at the start of the step
	// (norm over rows; for limits the penetration beyond the bound, 0
	// inside), m or rad.
	Violation float64
	State     State
	// Input is an actuator's control input after clamping (0 for other types).
	Input float64
	// Activation is a stateful actuator's activation that the step's
	// force took: the state's at the start of the step (Control.Act; 0
	// for other actuators and types).
	Activation float64
	// Allowed is, for regularized equality constraints (weld, ball,
	// distance, coupler), the constraint error that the regularization
	// allows under the step's impulse: ‖g‖ = δt θq θvq ‖R γ‖ (δt ‖R γ‖
	// for θq = 0), from γ = −(v_c − v̂)/R with v̂ of Compliance.equality; a
	// near-rigid constraint's error stays at this bound (m or rad).
	Allowed float64
}

// Reports appends to out one Report per item assembled by the last
// Assemble, reading impulses from γ (the solution's impulses, indexed like
// p's rows). Items are in Assemble's order: limits, cones, tendon limits, welds, balls,
// distances, couplers, actuators, frictions.
func (a *Assembler) Reports(set *Set, p *solver.Problem, gamma []float64, out []Report) []Report {
	for _, e := range a.entries {
		r := Report{Type: e.typ, Item: int(e.item), Name: set.name(e.typ, int(e.item)), Violation: e.violation, Input: e.input, Activation: e.act}
		if e.block < 0 {
			if e.forced() { // an actuator applied as a force: its impulse δt f
				r.Rows, r.Impulse[0], r.State = 1, e.impulse, Active
				if e.sat {
					r.State = Saturated
				}
			}
			out = append(out, r)
			continue
		}
		c := p.Constraints[e.block]
		r.Rows = c.Size
		copy(r.Impulse[:], gamma[c.Row:c.Row+c.Size])
		if e.vec >= 0 { // back to world axes: γ = V γ'
			n, v := c.Size, a.vecs[e.vec:]
			for row := range n {
				s := 0.0
				for k := range n {
					s += v[row*n+k] * gamma[c.Row+k]
				}
				r.Impulse[row] = s
			}
		}
		r.State = Active
		if e.typ == TypeWeld || e.typ == TypeBall || e.typ == TypeDistance || e.typ == TypeCoupler {
			s := 0.0
			for k := range c.Size {
				x := p.R[c.Row+k] * gamma[c.Row+k]
				s += x * x
			}
			r.Allowed = a.scale * math.Sqrt(s)
		}
		switch e.typ {
		case TypeLimit, TypeTendonLimit:
			r.Impulse[0], r.State = 0, Inactive
			for k := range e.blocks() {
				g := gamma[p.Constraints[e.block+k].Row]
				if g > 0 {
					r.State = Active
				}
				r.Impulse[0] += float64(e.sign[k]) * g
			}
		case TypeCone:
			if r.Impulse[0] <= 0 {
				r.State = Inactive
			}
		case TypeActuator, TypeFriction:
			if e.sat || (e.bound > 0 && !math.IsInf(e.bound, 1) && math.Abs(r.Impulse[0]) >= e.bound*(1-1e-9)) {
				r.State = Saturated
			}
		}
		out = append(out, r)
	}
	return out
}

// name returns the name of item i of the list of type t.
func (s *Set) name(t Type, i int) string {
	switch t {
	case TypeLimit:
		return s.Limits[i].Name
	case TypeCone:
		return s.Cones[i].Name
	case TypeWeld:
		return s.Welds[i].Name
	case TypeBall:
		return s.Balls[i].Name
	case TypeDistance:
		return s.Distances[i].Name
	case TypeCoupler:
		return s.Couplers[i].Name
	case TypeActuator:
		return s.Actuators[i].Name
	case TypeFriction:
		return s.Frictions[i].Name
	case TypeAttachment:
		return s.Attachments[i].Name
	case TypePrescribed:
		return s.Prescribed[i].Name
	case TypeTendonLimit:
		return s.TendonLimits[i].Name
	}
	return ""
}
