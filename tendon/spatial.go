package tendon

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// Site is a point fixed on a body: Point in the body's frame; Body −1 is
// the world (Point is then a world point).
type Site struct {
	Body  int
	Point spatial.Vec3
}

// Wrap is a wrapping obstacle between two sites of a path: a sphere, or an
// infinite cylinder along its frame's z axis, of radius Radius, whose frame
// is Frame in Body's frame (Body −1: the world). Side, if not nil, is the
// side site: the path passes on its side of the obstacle, and, when it is
// inside the circle, wraps from the inside (MuJoCo's sidesite).
type Wrap struct {
	Body     int
	Frame    spatial.Pose
	Cylinder bool
	Radius   float64
	Side     *Site
}

// Path is a spatial tendon: Sites[0], Sites[1], … joined by straight
// segments, segment k wrapping over Wraps[k] when that is not nil
// (len(Wraps) is 0 or len(Sites)−1). Its length L is the sum of the
// segments' lengths and arcs; its Jacobian is
// G = Σ_segments u_kᵀ (J_{b,k+1} − J_{a,k}), u_k the unit direction of
// straight segment k and J the point Jacobians of its ends, each end
// taken as fixed on its body (a tangent point on the wrap's body): the
// arcs' own variation is second order, the path being tangent to the
// obstacle (mj_tendon). Segments whose ends are on the same body add
// nothing to G.
//
// Pulleys split the path into branches (MuJoCo's <pulley divisor>): each
// pulley starts a branch at its site, the segment that would join that
// branch to the previous one is not part of the path, and the branch's
// segments add 1/Divisor of their length and Jacobian (mj_tendon: L +=
// length/divisor, J += Jacobian/divisor, the divisor holding until the next
// pulley; the branch before the first pulley has divisor 1).
// A Path holds no state: simulators may share it.
type Path struct {
	Sites   []Site
	Wraps   []*Wrap
	Pulleys []Pulley // by increasing Site
}

// Pulley starts a branch of a Path at site Site (0 for the first branch),
// whose segments count Divisor (> 0) times less.
type Pulley struct {
	Site    int
	Divisor float64
}

// Validate checks the path against model m: at least two sites, bodies in
// range, wraps with positive finite radii between sites.
func (p *Path) Validate(m *multibody.Model) error {
	if len(p.Sites) < 2 {
		return fmt.Errorf("a spatial tendon needs at least two sites, got %d", len(p.Sites))
	}
	if len(p.Wraps) != 0 && len(p.Wraps) != len(p.Sites)-1 {
		return fmt.Errorf("%d wraps for %d segments", len(p.Wraps), len(p.Sites)-1)
	}
	body := func(b int) error {
		if b < -1 || b >= len(m.Bodies) {
			return fmt.Errorf("body %d out of range", b)
		}
		return nil
	}
	for k, s := range p.Sites {
		if err := body(s.Body); err != nil {
			return fmt.Errorf("site %d: %w", k, err)
		}
		if !s.Point.IsFinite() {
			return fmt.Errorf("site %d: point %v is not finite", k, s.Point)
		}
	}
	if err := p.validatePulleys(); err != nil {
		return err
	}
	for k, w := range p.Wraps {
		if w == nil {
			continue
		}
		if err := body(w.Body); err != nil {
			return fmt.Errorf("wrap %d: %w", k, err)
		}
		if !(w.Radius > 0) || math.IsInf(w.Radius, 0) {
			return fmt.Errorf("wrap %d: radius %v must be positive and finite", k, w.Radius)
		}
		if w.Side != nil {
			if err := body(w.Side.Body); err != nil {
				return fmt.Errorf("wrap %d side site: %w", k, err)
			}
		}
	}
	return nil
}

// validatePulleys checks the pulleys: sites in range by increasing index,
// divisors positive and finite, every branch with at least two sites, and
// no wrap on a segment that joins two branches.
func (p *Path) validatePulleys() error {
	start := 0 // the current branch's first site
	for i, pl := range p.Pulleys {
		if !(pl.Divisor > 0) || math.IsInf(pl.Divisor, 0) {
			return fmt.Errorf("pulley %d: divisor %v must be positive and finite", i, pl.Divisor)
		}
		if pl.Site < 0 || pl.Site > len(p.Sites)-2 {
			return fmt.Errorf("pulley %d: site %d out of range [0, %d]", i, pl.Site, len(p.Sites)-2)
		}
		if pl.Site == 0 && i == 0 {
			continue
		}
		if pl.Site-start < 2 {
			return fmt.Errorf("pulley %d at site %d: the branch from site %d needs at least two sites", i, pl.Site, start)
		}
		if len(p.Wraps) > 0 && p.Wraps[pl.Site-1] != nil {
			return fmt.Errorf("pulley %d at site %d: the segment before it joins two branches and cannot wrap", i, pl.Site)
		}
		start = pl.Site
	}
	if len(p.Sites)-start < 2 {
		return fmt.Errorf("the last branch, from site %d, needs at least two sites", start)
	}
	return nil
}

// branch returns the divisor of segment k (from site k to k + 1) and
// whether the segment is part of the path (not the join of two branches),
// given the divisor div and the index next of the first pulley not yet
// passed, which it advances: callers run k = 0, 1, … with div = 1 and
// next = 0.
func (p *Path) branch(k int, div float64, next int) (float64, int, bool) {
	for next < len(p.Pulleys) && p.Pulleys[next].Site <= k {
		div = p.Pulleys[next].Divisor
		next++
	}
	in := next >= len(p.Pulleys) || p.Pulleys[next].Site != k+1
	return div, next, in
}

// position returns the world position of site s.
func position(ws *multibody.Workspace, s Site) spatial.Vec3 {
	if s.Body < 0 {
		return s.Point
	}
	return ws.Pose(s.Body).Apply(s.Point)
}

// frame returns the world pose of a wrap's frame.
func frame(ws *multibody.Workspace, w *Wrap) spatial.Pose {
	if w.Body < 0 {
		return w.Frame
	}
	return ws.Pose(w.Body).Compose(w.Frame)
}

// segment returns the points of segment k at the kinematics of ws: its
// start a, its end b, and, if it wraps (wrapped), the tangent points t0,
// t1 and the arc length arc between them.
func (p *Path) segment(ws *multibody.Workspace, k int) (a, b, t0, t1 spatial.Vec3, arc float64, wrapped bool) {
	a, b = position(ws, p.Sites[k]), position(ws, p.Sites[k+1])
	if len(p.Wraps) == 0 || p.Wraps[k] == nil {
		return a, b, a, b, 0, false
	}
	w := p.Wraps[k]
	var side *spatial.Vec3
	if w.Side != nil {
		s := position(ws, *w.Side)
		side = &s
	}
	t0, t1, arc = wrap(a, b, frame(ws, w), w.Radius, w.Cylinder, side)
	return a, b, t0, t1, arc, arc >= 0
}

// Length returns L at the kinematics of ws (updated at q).
func (p *Path) Length(ws *multibody.Workspace) float64 {
	l, div, next, in := 0.0, 1.0, 0, true
	for k := range len(p.Sites) - 1 {
		if div, next, in = p.branch(k, div, next); !in {
			continue
		}
		a, b, t0, t1, arc, wrapped := p.segment(ws, k)
		if !wrapped {
			l += b.Sub(a).Norm() / div
			continue
		}
		l += (t0.Sub(a).Norm() + arc + b.Sub(t1).Norm()) / div
	}
	return l
}

// Jacobian writes G (length m.NV) into g and returns L, at the kinematics
// of ws (updated at q); local is scratch of length ≥ 3 NV_t for the largest
// tree. It allocates nothing.
func (p *Path) Jacobian(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64 {
	clear(g[:m.NV])
	if len(p.Sites) == 2 && len(p.Pulleys) == 0 && (len(p.Wraps) == 0 || p.Wraps[0] == nil) {
		return p.oneSegment(m, ws, g, local)
	}
	l, div, next, in := 0.0, 1.0, 0, true
	for k := range len(p.Sites) - 1 {
		if div, next, in = p.branch(k, div, next); !in {
			continue
		}
		a, b, t0, t1, arc, wrapped := p.segment(ws, k)
		ba, bb := p.Sites[k].Body, p.Sites[k+1].Body
		if !wrapped {
			l += b.Sub(a).Norm() / div
			straight(m, ws, g, local, ba, a, bb, b, div)
			continue
		}
		bw := p.Wraps[k].Body
		l += (t0.Sub(a).Norm() + arc + b.Sub(t1).Norm()) / div
		straight(m, ws, g, local, ba, a, bw, t0, div)
		straight(m, ws, g, local, bw, t1, bb, b, div)
	}
	return l
}

// oneSegment is Jacobian for a path of one straight segment (ball_in_cup's
// string): the loop's one pass, in which branch gives div = 1 and segment
// the two sites, and l = 0 + ‖b − a‖/1 is ‖b − a‖ (a norm is never −0),
// the norm that straight's normalization takes. The sites are read in
// place and the difference and its norm made once, on scalars: the
// loop's form copied each site, its pose and each vector at every call.
func (p *Path) oneSegment(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64 {
	var x [2]spatial.Vec3 // the sites' world positions a, b
	for i := range x {
		sitePosition(ws, &p.Sites[i], &x[i])
	}
	a, b := &x[0], &x[1]
	d := spatial.Vec3{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	l := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]) // Vec3.Norm
	if ba, bb := p.Sites[0].Body, p.Sites[1].Body; ba != bb {
		segmentG(m, ws, g, local, ba, a, bb, b, &d, l, 1)
	}
	return l
}

// sitePosition sets *x to position(ws, *s), with the site and its body's
// pose read in place: Pose.Apply's products and sums, in its order (the
// same bits), where the call copied the 56-byte pose and the point twice
// each.
func sitePosition(ws *multibody.Workspace, s *Site, x *spatial.Vec3) {
	if s.Body < 0 {
		*x = s.Point
		return
	}
	X := ws.PoseOf(s.Body)
	q := &X.R
	v0, v1, v2 := s.Point[0], s.Point[1], s.Point[2]
	t0 := 2 * (q.Y*v2 - q.Z*v1)
	t1 := 2 * (q.Z*v0 - q.X*v2)
	t2 := 2 * (q.X*v1 - q.Y*v0)
	x[0] = ((v0 + q.W*t0) + (q.Y*t2 - q.Z*t1)) + X.P[0]
	x[1] = ((v1 + q.W*t1) + (q.Z*t0 - q.X*t2)) + X.P[1]
	x[2] = ((v2 + q.W*t2) + (q.X*t1 - q.Y*t0)) + X.P[2]
}

// straight adds u_kᵀ (J_b(xb) − J_a(xa))/div to g for the straight segment
// from xa on body ba to xb on body bb (nothing when ba = bb), div its
// branch's pulley divisor.
func straight(m *multibody.Model, ws *multibody.Workspace, g, local []float64, ba int, xa spatial.Vec3, bb int, xb spatial.Vec3, div float64) {
	if ba == bb {
		return
	}
	d := xb.Sub(xa)
	segmentG(m, ws, g, local, ba, &xa, bb, &xb, &d, d.Norm(), div)
}

// segmentG is straight for the segment's difference d = xb − xa of norm n:
// u_k = d/n (Vec3.Normalize; mju_normalize3's fallback x below minVal,
// NaN kept), scaled by 1/div.
func segmentG(m *multibody.Model, ws *multibody.Workspace, g, local []float64, ba int, xa *spatial.Vec3, bb int, xb, d *spatial.Vec3, n, div float64) {
	u := spatial.Vec3{1, 0, 0} // mju_normalize3's fallback
	if !(n < minVal) {
		s := 1 / n
		u = spatial.Vec3{s * d[0], s * d[1], s * d[2]}
	}
	if div != 1 {
		u = u.Scale(1 / div)
	}
	addPoint(m, ws, g, local, bb, xb, &u)
	u = spatial.Vec3{-u[0], -u[1], -u[2]}
	addPoint(m, ws, g, local, ba, xa, &u)
}

// addPoint adds dᵀ J_b(x) to g: by Workspace.AddWrench, which gives the
// same entries without the Jacobian (g is a sum from +0, never −0), or,
// where it declines, from PointJacobian.
func addPoint(m *multibody.Model, ws *multibody.Workspace, g, local []float64, b int, x, d *spatial.Vec3) {
	if b < 0 || ws.AddWrench(b, x, d, nil, g) {
		return
	}
	t := ws.PointJacobian(b, *x, local)
	if t < 0 {
		return
	}
	tr := &m.Trees[t]
	n := tr.NV
	for j := range n {
		g[tr.VOffset+j] += d[0]*local[j] + d[1]*local[n+j] + d[2]*local[2*n+j]
	}
}
