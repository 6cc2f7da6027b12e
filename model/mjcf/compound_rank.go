package mjcf

import (
	"fmt"
	"math"
	"strings"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// independentParts refuses a body whose joints do not move it
// independently at the model pose: when the motion of a joint without
// armature is a combination of the motions of the joints before it (six
// hinges on one axis, as MuJoCo's test/user/testdata/auto_limits.xml
// has), the mass matrix M = SᵀIS + diag(armature) is singular whatever
// the body's inertia. MuJoCo 2.2.2 loads such a model, warns "Inertia
// matrix is too close to singular" in mj_factorM (which replaces the
// pivot by mjMINVAL) and diverges: on auto_limits.xml qvel reaches 2.2e5
// by its third step and mj_checkAcc resets the state after eleven.
//
// Each joint's motion is its column of the body's motion subspace at the
// model pose (every part at its ref, so every part's frame is the body's):
// a hinge of unit axis a through p moves the body origin by (a, −a × p), a
// slide by (0, a), a ball by (e_k, −e_k × p) for k = x, y, z. A column
// whose distance from the span of the earlier ones (Gram–Schmidt on unit
// columns) is below 1e-9 is dependent.
func (c *compiler) independentParts(body string, parts []mjJoint) error {
	var basis [][6]float64
	var names []string
	for i, mj := range parts {
		p := &mj.part
		name := mj.ref.name
		if name == "" {
			name = fmt.Sprintf("%d (unnamed)", i)
		}
		if p.Armature != nil && *p.Armature > 0 {
			continue // armature keeps M positive definite along this joint
		}
		for _, col := range partColumns(p.Type, p.Axis, p.Pos) {
			r, ok := residual(col, basis)
			if !ok {
				return c.r.Errorf(mj.v.e, "", "body %q: the motion of joint %q is a combination of the motions of %s at the model pose, and none of them has armature: "+
					"the mass matrix is singular (MuJoCo 2.2.2 loads such a model but warns that its inertia matrix is too close to singular and its simulation diverges; give the joints different axes or positions, or armature)",
					body, name, quoted(names))
			}
			basis = append(basis, r)
		}
		names = append(names, name)
	}
	return nil
}

// partColumns returns a part's motion columns (ω, velocity of the body
// origin) at the model pose.
func partColumns(typ string, axis, pos *scene.Vec) [][6]float64 {
	var a, p spatial.Vec3
	if axis != nil {
		a = spatial.Vec3(*axis)
	} else {
		a = spatial.Vec3{0, 0, 1}
	}
	if pos != nil {
		p = spatial.Vec3(*pos)
	}
	rot := func(w spatial.Vec3) [6]float64 {
		v := w.Cross(p).Neg()
		return [6]float64{w[0], w[1], w[2], v[0], v[1], v[2]}
	}
	switch typ {
	case "revolute":
		return [][6]float64{rot(a)}
	case "prismatic":
		return [][6]float64{{0, 0, 0, a[0], a[1], a[2]}}
	}
	return [][6]float64{rot(spatial.Vec3{1, 0, 0}), rot(spatial.Vec3{0, 1, 0}), rot(spatial.Vec3{0, 0, 1})}
}

// residual returns the unit column's component orthogonal to the
// orthonormal basis, normalised, and false when it is below 1e-9.
func residual(col [6]float64, basis [][6]float64) ([6]float64, bool) {
	scale := func(x *[6]float64) float64 {
		n := 0.0
		for _, v := range x {
			n += v * v
		}
		return math.Sqrt(n)
	}
	n := scale(&col)
	if n == 0 {
		return col, false
	}
	for k := range col {
		col[k] /= n
	}
	for _, b := range basis {
		d := 0.0
		for k := range col {
			d += col[k] * b[k]
		}
		for k := range col {
			col[k] -= d * b[k]
		}
	}
	r := scale(&col)
	if r < 1e-9 {
		return col, false
	}
	for k := range col {
		col[k] /= r
	}
	return col, true
}

// quoted lists names as "a", "b" and "c".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
