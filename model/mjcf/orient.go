package mjcf

import (
	"math"
	"strings"
	"unicode"

	"github.com/stiction-sim/stiction/spatial"
)

// orientations are MJCF's ways to give a frame's orientation; at most one
// may be given.
var orientations = []string{"quat", "axisangle", "euler", "xyaxes", "zaxis"}

// pose reads pos and the orientation of a view (body, geom, site,
// inertial).
func (c *compiler) pose(v view) (spatial.Pose, error) {
	pos, err := c.floats(v, "pos", 3, []float64{0, 0, 0})
	if err != nil {
		return spatial.Pose{}, err
	}
	q, err := c.orientation(v)
	return spatial.Pose{R: q, P: spatial.Vec3(pos)}, err
}

// alternatives are MuJoCo's alternative orientations in the order
// mjCAlternative::Set (MuJoCo 2.2.2) applies them, each replacing the
// previous one.
var alternatives = []string{"axisangle", "xyaxes", "zaxis", "euler"}

// orientation reads the orientation of v (identity if none). The element
// gives at most one form; with its default classes (geoms and sites
// take orientations from defaults, as pos), MuJoCo 2.2.2 applies every
// alternative form given on the element or a class in the order
// axisangle, xyaxes, zaxis, euler, the last one winning, and quat only
// when there is none: a class's euler overrides the element's own quat or
// zaxis.
func (c *compiler) orientation(v view) (spatial.Quat, error) {
	var own string
	for _, o := range orientations {
		if v.e.Has(o) {
			if own != "" {
				return spatial.Quat{}, c.r.Errorf(v.e, o, "%s and %s given together: give at most one orientation", own, o)
			}
			own = o
		}
	}
	var given string
	for _, o := range alternatives {
		if v.has(o) {
			given = o
		}
	}
	if given == "" && v.has("quat") {
		given = "quat"
	}
	if given != "" && own != "" && given != own {
		v.e.Attr(own)
		c.r.Warnf(v.e, own, "%s is overridden by the default class's %s (MuJoCo 2.2.2 applies an alternative orientation from the class after the element's %s)", own, given, own)
	}
	e := v.src(given)
	switch given {
	case "":
		return spatial.QuatIdentity(), nil
	case "quat":
		x, _, err := c.r.Floats(e, "quat", 4)
		if err != nil {
			return spatial.Quat{}, err
		}
		q := spatial.Quat{W: x[0], X: x[1], Y: x[2], Z: x[3]}
		if q.Norm() < 1e-12 {
			return spatial.Quat{}, c.r.Errorf(e, "quat", "a quaternion must be non-zero")
		}
		return q.Normalize(), nil
	case "axisangle":
		x, _, err := c.r.Floats(e, "axisangle", 4)
		if err != nil {
			return spatial.Quat{}, err
		}
		ax := spatial.Vec3{x[0], x[1], x[2]}
		if ax.Norm() < 1e-12 {
			return spatial.Quat{}, c.r.Errorf(e, "axisangle", "the axis must be non-zero")
		}
		u, _ := ax.Normalize()
		return spatial.QuatFromAxisAngle(u, c.angle(x[3])), nil
	case "euler":
		x, _, err := c.r.Floats(e, "euler", 3)
		if err != nil {
			return spatial.Quat{}, err
		}
		return c.euler(x), nil
	case "xyaxes":
		x, _, err := c.r.Floats(e, "xyaxes", 6)
		if err != nil {
			return spatial.Quat{}, err
		}
		ex, nx := spatial.Vec3{x[0], x[1], x[2]}.Normalize()
		y := spatial.Vec3{x[3], x[4], x[5]}
		y = y.Sub(ex.Scale(ex.Dot(y)))
		ey, ny := y.Normalize()
		if nx < 1e-12 || ny < 1e-12 {
			return spatial.Quat{}, c.r.Errorf(e, "xyaxes", "the axes must be non-zero and not parallel")
		}
		ez := ex.Cross(ey)
		return quatFromMat(spatial.Mat3{{ex[0], ey[0], ez[0]}, {ex[1], ey[1], ez[1]}, {ex[2], ey[2], ez[2]}}), nil
	default: // zaxis
		x, _, err := c.r.Floats(e, "zaxis", 3)
		if err != nil {
			return spatial.Quat{}, err
		}
		z := spatial.Vec3{x[0], x[1], x[2]}
		if z.Norm() < 1e-12 {
			return spatial.Quat{}, c.r.Errorf(e, "zaxis", "the axis must be non-zero")
		}
		return rotateZTo(z), nil
	}
}

// angle converts an angle from the compiler's unit to radians.
func (c *compiler) angle(a float64) float64 {
	if c.degrees {
		return a * math.Pi / 180
	}
	return a
}

// euler composes the three rotations of the compiler's eulerseq: a
// lower-case letter rotates about the moving (intrinsic) axis, an
// upper-case one about the fixed axis. The arithmetic is MuJoCo 2.2.2's
// (mjCAlternative::Set, user_objects.cc): degrees as a/180·π, each
// rotation (cos(a/2), sin(a/2)·axis) with glibc's sin and cos (crSinCos),
// the product mjuu_mulquat's
// (normalized after each step), then normalized once more.
func (c *compiler) euler(x []float64) spatial.Quat {
	q := mjQuat{1, 0, 0, 0}
	for i, ch := range c.eulerseq {
		a := x[i]
		if c.degrees {
			a = a / 180 * math.Pi
		}
		sa, ca := crSinCos(a / 2) // glibc's, correctly rounded
		r := mjQuat{ca}
		r[1+strings.IndexRune("xyz", unicode.ToLower(ch))] = sa
		if ch >= 'a' {
			q = mjuuMulQuat(q, r) // intrinsic: about the rotated axis
		} else {
			q = mjuuMulQuat(r, q) // extrinsic: about the fixed axis
		}
	}
	q = mjuuNormVec(q)
	return spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
}

// mjuuMulQuat is mjuu_mulquat: mju_mulQuat's product, normalized.
func mjuuMulQuat(a, b mjQuat) mjQuat { return mjuuNormVec(mulQuat(a, b)) }

// mjuuNormVec is mjuu_normvec on a quaternion: each component divided by
// the norm (unchanged when the squared norm is below mjEPS, 1e-14).
func mjuuNormVec(q mjQuat) mjQuat {
	n := q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]
	if n < 1e-14 {
		return q
	}
	n = math.Sqrt(n)
	return mjQuat{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
}

// rotateZTo returns the smallest rotation taking z to the direction of n.
func rotateZTo(n spatial.Vec3) spatial.Quat {
	u, _ := n.Normalize()
	ax := spatial.Vec3{0, 0, 1}.Cross(u)
	s, cz := ax.Norm(), u[2]
	if s < 1e-12 {
		if cz > 0 {
			return spatial.QuatIdentity()
		}
		return spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, math.Pi)
	}
	return spatial.QuatFromAxisAngle(ax.Scale(1/s), math.Atan2(s, cz))
}

// quatFromMat converts a rotation matrix (Shepperd's method).
func quatFromMat(m spatial.Mat3) spatial.Quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	var q spatial.Quat
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = spatial.Quat{W: s / 4, X: (m[2][1] - m[1][2]) / s, Y: (m[0][2] - m[2][0]) / s, Z: (m[1][0] - m[0][1]) / s}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := math.Sqrt(1+m[0][0]-m[1][1]-m[2][2]) * 2
		q = spatial.Quat{W: (m[2][1] - m[1][2]) / s, X: s / 4, Y: (m[0][1] + m[1][0]) / s, Z: (m[0][2] + m[2][0]) / s}
	case m[1][1] > m[2][2]:
		s := math.Sqrt(1+m[1][1]-m[0][0]-m[2][2]) * 2
		q = spatial.Quat{W: (m[0][2] - m[2][0]) / s, X: (m[0][1] + m[1][0]) / s, Y: s / 4, Z: (m[1][2] + m[2][1]) / s}
	default:
		s := math.Sqrt(1+m[2][2]-m[0][0]-m[1][1]) * 2
		q = spatial.Quat{W: (m[1][0] - m[0][1]) / s, X: (m[0][2] + m[2][0]) / s, Y: (m[1][2] + m[2][1]) / s, Z: s / 4}
	}
	return q.Normalize()
}
