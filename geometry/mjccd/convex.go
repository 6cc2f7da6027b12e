package mjccd

import "math"

// Contact is one contact as MuJoCo's mjContact holds it: Dist, the signed
// distance (negative in penetration), Pos, the point, and Normal, the
// frame's first axis, pointing from geom 1 to geom 2.
type Contact struct {
	Dist   float64
	Pos    [3]float64
	Normal [3]float64
}

// Options are mjOption's collision settings.
type Options struct {
	Tolerance  float64 // mpr_tolerance (MuJoCo's default 1e-6)
	Iterations int     // mpr_iterations (default 50)
	MultiCCD   bool    // <flag multiccd="enable"/>
}

// DefaultOptions are MuJoCo 2.2.2's defaults, multiccd off.
var DefaultOptions = Options{Tolerance: 1e-6, Iterations: 50}

// MaxContacts is the most contacts Convex returns: the first and one per
// multiccd perturbation.
const MaxContacts = 5

// glibc's sin and cos of the multiccd half angle 5e-4 (correctly
// rounded; Go's math.Cos differs in the last bit): mju_axisAngle2Quat's
// sin(angle/2) and cos(angle/2) for angle = ±1e-3.
var (
	sinHalf = math.Float64frombits(0x3f40624dc77da20e)
	cosHalf = math.Float64frombits(0x3fefffffbce42195)
)

// Convex is mjc_Convex: the contacts of g1 and g2 (at most MaxContacts,
// appended to out) within margin. The first comes from MPR; with
// opt.MultiCCD, and neither geom a sphere or an ellipsoid, both geoms are
// turned by ±1e-3 rad about the contact frame's two tangents, g1 one way
// and g2 the other, around the first point, and each new MPR point at
// least 1e-3·min(rbound) from all the earlier ones is added with the
// first point's distance. g1 and g2 are not modified.
func Convex(g1, g2 *Geom, margin float64, opt Options, out []Contact) []Contact {
	a, b := *g1, *g2
	a.meshIndex, b.meshIndex = -1, -1
	first, ok := mprIteration(&a, &b, margin, opt)
	if !ok {
		return out
	}
	start := len(out)
	out = append(out, first)
	if opt.MultiCCD && a.Type != Ellipsoid && a.Type != Sphere && b.Type != Ellipsoid && b.Type != Sphere {
		out = multiCCD(g1, g2, margin, opt, first, out, start)
	}
	// mj_collideGeoms completes each contact's frame (mju_makeFrame),
	// normalizing the normal once more.
	for i := start; i < len(out); i++ {
		n := vec(out[i].Normal)
		mjNormalize(&n)
		out[i].Normal = n
	}
	return out
}

// multiCCD is mjc_Convex's search for the extra contacts of the multiccd
// flag around the first one, appended to out (whose contacts from start
// on are this pair's).
func multiCCD(g1, g2 *Geom, margin float64, opt Options, first Contact, out []Contact, start int) []Contact {
	frame := makeFrame(first.Normal)
	tol := 1e-3 * math.Min(g1.RBound, g2.RBound)
	axes := [2]vec{{frame[3], frame[4], frame[5]}, {frame[6], frame[7], frame[8]}}
	sins := [2]float64{-sinHalf, sinHalf}
	p0 := vec(first.Pos)
	for ax := range 2 {
		for an := range 2 {
			// mju_axisAngle2Quat, mju_quat2Mat
			q := [4]float64{cosHalf, axes[ax][0] * sins[an], axes[ax][1] * sins[an], axes[ax][2] * sins[an]}
			rot := quat2Mat(q)
			inv := transpose(rot)
			a, b := *g1, *g2
			a.meshIndex, b.meshIndex = -1, -1
			rotateFrame(&p0, &rot, &a.Mat, &a.Pos)
			rotateFrame(&p0, &inv, &b.Mat, &b.Pos)
			c, ok := mprIteration(&a, &b, margin, opt)
			if ok && distinct(out[start:], &c, tol) {
				c.Dist = first.Dist
				out = append(out, c)
			}
		}
	}
	return out
}

// distinct is mjc_isDistinctContact: c is farther than tol from every
// contact of prev.
func distinct(prev []Contact, c *Contact, tol float64) bool {
	p := vec(c.Pos)
	for i := range prev {
		q := vec(prev[i].Pos)
		if dist3(&q, &p) <= tol {
			return false
		}
	}
	return true
}

// mprIteration is mjc_MPRIteration: one MPR contact with its normal
// fixed (mjc_fixNormal); none when MPR finds no overlap or no normal.
func mprIteration(g1, g2 *Geom, margin float64, opt Options) (Contact, bool) {
	s := mpr{g1: g1, g2: g2, margin: margin, tol: opt.Tolerance, iters: opt.Iterations}
	depth, dir, pos, ok := s.penetration()
	origin := vec{}
	if !ok || vecEq(&dir, &origin) {
		return Contact{}, false
	}
	c := Contact{Dist: margin - depth, Pos: pos, Normal: dir}
	fixNormal(g1, g2, &c)
	return c, true
}

// QuatToMat is MuJoCo's mju_quat2Mat: the row-major rotation matrix of
// unit quaternion q = (w, x, y, z), with MuJoCo's rounding (geom_xmat of
// a geom in its body's frame).
func QuatToMat(q [4]float64) [9]float64 { return quat2Mat(q) }

// quat2Mat is mju_quat2Mat.
func quat2Mat(q [4]float64) [9]float64 {
	if q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0 {
		return [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	q00, q01, q02, q03 := q[0]*q[0], q[0]*q[1], q[0]*q[2], q[0]*q[3]
	q11, q12, q13 := q[1]*q[1], q[1]*q[2], q[1]*q[3]
	q22, q23, q33 := q[2]*q[2], q[2]*q[3], q[3]*q[3]
	var r [9]float64
	r[0] = q00 + q11 - q22 - q33
	r[4] = q00 - q11 + q22 - q33
	r[8] = q00 - q11 - q22 + q33
	r[1] = 2 * (q12 - q03)
	r[2] = 2 * (q13 + q02)
	r[3] = 2 * (q12 + q03)
	r[5] = 2 * (q23 - q01)
	r[6] = 2 * (q13 - q02)
	r[7] = 2 * (q23 + q01)
	return r
}

func transpose(m [9]float64) [9]float64 {
	return [9]float64{m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]}
}

// rotateFrame is engine_collision_convex.c's mju_rotateFrame: the frame
// (xmat, xpos) turned by rot about origin.
func rotateFrame(origin *vec, rot, xmat *[9]float64, xpos *[3]float64) {
	*xmat = mulMatMat3(rot, xmat)
	p := vec(*xpos)
	rel := sub(origin, &p)
	v := rotVecMat(&rel, rot)
	v = sub(&v, &rel)
	p = sub(&p, &v)
	*xpos = p
}

// makeFrame is mju_makeFrame for a frame whose second axis is zero: the
// normalized normal, then (0, 1, 0) (or (0, 0, 1) when |n_y| ≥ 0.5) made
// orthogonal to it, then their cross product.
func makeFrame(n [3]float64) [9]float64 {
	x := vec(n)
	mjNormalize(&x)
	y := vec{0, 1, 0}
	if !(x[1] < 0.5 && x[1] > -0.5) {
		y = vec{0, 0, 1}
	}
	d := dot(&x, &y)
	t := vec{x[0] * d, x[1] * d, x[2] * d}
	y = sub(&y, &t)
	mjNormalize(&y)
	z := cross(&x, &y)
	return [9]float64{x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]}
}
