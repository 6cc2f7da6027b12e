package forces

import "github.com/stiction-sim/stiction/spatial"

// Attachment is a point fixed on a body: Point is in the body frame. Body −1
// is the world (Point is then a world point).
type Attachment struct {
	Body  int
	Point spatial.Vec3
}

// PathSpring is a linear spring–damper along a path through two or more
// points fixed on bodies (mechanics notes §0.12–0.14): with segment lengths
// l_i, unit directions u_i and total length L = Σ l_i, the tension is
// F = k (L − L₀) + d L̇, with L̇ = Σ (ẋ_{i+1} − ẋ_i)·u_i = G v (eq. 0.12). Each
// segment pulls its ends together with F. Two points make the linear axial
// spring of §0.12.1; more make a multi-point (via-point) spring, §0.14.
//
// Generalized force τ = −F Gᵀ. Damping D = d GᵀG (exact). Stiffness
// K = k GᵀG + Σ_i max(F, 0)/l_i Δ_iᵀ (I − u_i u_iᵀ) Δ_i with Δ_i = J_{i+1} − J_i:
// the exact point-space Jacobian of §0.12 (k U_n + F/l U_p per segment, see
// AxialJacobians) with the compressive transverse term, the non-symmetric
// velocity term and the geometric term (∂J/∂q) f dropped (package comment).
//
// A PathSpring keeps scratch memory: give each Simulator its own.
type PathSpring struct {
	Points     []Attachment
	Stiffness  float64 // k, N/m
	Damping    float64 // d, N·s/m
	RestLength float64 // L₀, m

	x, xd []spatial.Vec3 // scratch
}

// NewAxialSpring returns the two-point spring–damper between a and b.
func NewAxialSpring(a, b Attachment, k, d, rest float64) *PathSpring {
	return &PathSpring{Points: []Attachment{a, b}, Stiffness: k, Damping: d, RestLength: rest}
}

// points fills the world positions and velocities of the path's points.
func (e *PathSpring) points(c *Context) {
	if len(e.x) != len(e.Points) {
		e.x, e.xd = make([]spatial.Vec3, len(e.Points)), make([]spatial.Vec3, len(e.Points))
	}
	for i, a := range e.Points {
		e.x[i], e.xd[i] = attachmentState(c, a)
	}
}

// attachmentState returns the world position and velocity of an attachment.
func attachmentState(c *Context, a Attachment) (x, v spatial.Vec3) {
	if a.Body < 0 {
		return a.Point, spatial.Vec3{}
	}
	return pointState(c, a.Body, a.Point)
}

// segment returns the unit direction and length of segment i (u = 0 for a
// degenerate segment).
func (e *PathSpring) segment(i int) (spatial.Vec3, float64) {
	u, l := e.x[i+1].Sub(e.x[i]).Normalize()
	if l < 1e-12 {
		return spatial.Vec3{}, l
	}
	return u, l
}

// Length returns L and L̇ at the context.
func (e *PathSpring) Length(c *Context) (l, ld float64) {
	e.points(c)
	for i := range len(e.x) - 1 {
		u, li := e.segment(i)
		l += li
		ld += e.xd[i+1].Sub(e.xd[i]).Dot(u)
	}
	return l, ld
}

// Tension returns F = k (L − L₀) + d L̇.
func (e *PathSpring) Tension(c *Context) float64 {
	l, ld := e.Length(c)
	return e.Stiffness*(l-e.RestLength) + e.Damping*ld
}

// Apply adds τ = −F Gᵀ and, if asked, K and D.
func (e *PathSpring) Apply(c *Context, out *Output) {
	F := e.Tension(c) // also fills e.x, e.xd
	g := out.row
	clear(g)
	nv := c.Model.NV
	prev, cur := out.jac[0], out.jac[1]
	delta := out.ang[0]
	for i := range e.Points {
		// G = Σ_j (u_{j−1} − u_j)ᵀ J_j
		var coef spatial.Vec3
		if i > 0 {
			u, _ := e.segment(i - 1)
			coef = u
		}
		if i < len(e.Points)-1 {
			u, _ := e.segment(i)
			coef = coef.Sub(u)
		}
		e.jacobian(c, out, i, cur)
		for j := range nv {
			g[j] += coef[0]*cur[j] + coef[1]*cur[nv+j] + coef[2]*cur[2*nv+j]
		}
		if i > 0 && out.Jacobians && F > 0 {
			u, l := e.segment(i - 1)
			if l >= 1e-12 {
				for j := range delta {
					delta[j] = cur[j] - prev[j]
				}
				P := spatial.Identity3().Sub(spatial.Outer(u, u))
				out.addJtXJ(out.K, delta, P, F/l)
			}
		}
		prev, cur = cur, prev
	}
	for j := range nv {
		out.F[j] -= F * g[j]
	}
	if out.Jacobians {
		out.addOuter(out.K, g, e.Stiffness)
		out.addOuter(out.D, g, e.Damping)
	}
}

// jacobian writes the global point Jacobian of point i into dst.
func (e *PathSpring) jacobian(c *Context, out *Output, i int, dst []float64) {
	a := e.Points[i]
	if a.Body < 0 {
		clear(dst)
		return
	}
	out.pointJacobian(c, a.Body, e.x[i], dst)
}

// PotentialEnergy returns ½ k (L − L₀)².
func (e *PathSpring) PotentialEnergy(c *Context) float64 {
	l, _ := e.Length(c)
	return 0.5 * e.Stiffness * (l - e.RestLength) * (l - e.RestLength)
}

// AxialJacobians returns the exact point-space Jacobians of the force
// f₁ = F u on x₁ of a linear axial spring–damper (mechanics notes §0.12.1):
//
//	∂f₁/∂x₁ = −k U_n − (d/l) u (ẋ₂−ẋ₁)ᵀ U_p − (F/l) U_p,  ∂f₁/∂ẋ₁ = −d U_n,
//
// with U_n = uuᵀ, U_p = I − uuᵀ and F = k (l − r) + d l̇. The other blocks
// follow by symmetry: ∂f₂/∂x₂ = ∂f₁/∂x₁ = −∂f₁/∂x₂.
func AxialJacobians(x1, x2, v1, v2 spatial.Vec3, k, d, r float64) (dfdx, dfdv spatial.Mat3) {
	u, l := x2.Sub(x1).Normalize()
	vd := v2.Sub(v1)
	F := k*(l-r) + d*vd.Dot(u)
	Un := spatial.Outer(u, u)
	Up := spatial.Identity3().Sub(Un)
	dfdx = Un.Scale(-k).Sub(spatial.Outer(u, Up.MulVec(vd)).Scale(d / l)).Sub(Up.Scale(F / l))
	return dfdx, Un.Scale(-d)
}
