package forces

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// Element is a force element.
type Element interface {
	// Apply adds the element's generalized force at the context's (q, v, t)
	// into out.F and, if out.Jacobians, its SPD stiffness and damping
	// contributions into out.K and out.D.
	Apply(c *Context, out *Output)
	// PotentialEnergy returns the element's stored energy at the context's
	// configuration (0 for non-conservative elements).
	PotentialEnergy(c *Context) float64
}

// Context is what an element evaluates at: the model, a workspace whose
// kinematics have been updated at (Q, V), and the time T.
type Context struct {
	Model *multibody.Model
	WS    *multibody.Workspace
	Q, V  []float64
	T     float64
}

// Output accumulates the generalized force (length NV) and the per-tree
// dense row-major blocks of K and D (tree t at Off[t], NV_t×NV_t, the same
// layout as solver.Problem.A when cliques are trees).
type Output struct {
	F, K, D []float64
	// N is the rest of the damping Jacobian −∂F/∂v = D + N (same layout
	// as D) that D, symmetric and positive semi-definite, leaves out: the
	// fluid's ellipsoid model's, neither symmetric nor definite. Only
	// mujoco-implicit uses it (an LU solve); the other schemes see D.
	N         []float64
	Off       []int
	Jacobians bool // fill K and D

	m     *multibody.Model
	jac   [2][]float64 // 3×NV global point or frame Jacobians
	ang   [2][]float64 // 3×NV angular Jacobians
	row   []float64    // 1×NV
	local []float64    // 3×NV_t tree-local scratch
}

// NewOutput returns an output sized for model m.
func NewOutput(m *multibody.Model) *Output {
	o := &Output{m: m, F: make([]float64, m.NV), Off: make([]int, len(m.Trees)), row: make([]float64, m.NV)}
	n := 0
	for t, tr := range m.Trees {
		o.Off[t] = n
		n += tr.NV * tr.NV
	}
	o.K, o.D, o.N = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range 2 {
		o.jac[i] = make([]float64, 3*m.NV)
		o.ang[i] = make([]float64, 3*m.NV)
	}
	o.local = make([]float64, 3*m.NV)
	return o
}

// Reset zeroes F, K, D and N.
func (o *Output) Reset() {
	clear(o.F)
	clear(o.K)
	clear(o.D)
	clear(o.N)
}

// pointJacobian writes the global 3×NV Jacobian of the world velocity of
// body b's material point at world position p into dst.
func (o *Output) pointJacobian(c *Context, b int, p spatial.Vec3, dst []float64) {
	o.scatter(c.WS.PointJacobian(b, p, o.local), dst)
}

// angularJacobian writes the global 3×NV Jacobian of body b's angular
// velocity into dst.
func (o *Output) angularJacobian(c *Context, b int, dst []float64) {
	o.scatter(c.WS.AngularJacobian(b, o.local), dst)
}

// addWrench adds J_pᵀ f + J_ωᵀ τ to F for the force f at world point p
// of body b and the moment τ: by Workspace.AddWrench, which gives the
// Jacobian form's bits on F (a sum from +0), or, where it declines, from
// the Jacobians (wrenchByJacobians).
func (o *Output) addWrench(c *Context, b int, p, f, t spatial.Vec3) {
	if !c.WS.AddWrench(b, &p, &f, &t, o.F) {
		o.wrenchByJacobians(c, b, p, f, t)
	}
}

// wrenchByJacobians is addWrench from the global Jacobians (into
// o.jac[0]): out of line, as AddWrench takes every finite wrench on a
// body that is not a lone free body.
//
//go:noinline
func (o *Output) wrenchByJacobians(c *Context, b int, p, f, t spatial.Vec3) {
	o.pointJacobian(c, b, p, o.jac[0])
	o.addJtF(o.jac[0], f)
	o.angularJacobian(c, b, o.jac[0])
	o.addJtF(o.jac[0], t)
}

// scatter copies the tree-local 3×NV_t block in o.local of tree t (−1: none)
// into the global 3×NV dst.
func (o *Output) scatter(t int, dst []float64) {
	clear(dst)
	if t < 0 {
		return
	}
	tr := &o.m.Trees[t]
	nv := o.m.NV
	for r := range 3 {
		copy(dst[r*nv+tr.VOffset:r*nv+tr.VOffset+tr.NV], o.local[r*tr.NV:(r+1)*tr.NV])
	}
}

// addJtF adds Jᵀ f to F for a global 3×NV Jacobian J.
func (o *Output) addJtF(J []float64, f spatial.Vec3) {
	nv := o.m.NV
	for j := range nv {
		o.F[j] += J[j]*f[0] + J[nv+j]*f[1] + J[2*nv+j]*f[2]
	}
}

// addJtXJ adds s·Jᵀ X J to the tree blocks of dst (K or D) for a global
// 3×NV Jacobian J and symmetric 3×3 X, dropping cross-tree blocks.
func (o *Output) addJtXJ(dst []float64, J []float64, X spatial.Mat3, s float64) {
	nv := o.m.NV
	for t, tr := range o.m.Trees {
		n, a := tr.NV, tr.VOffset
		blk := dst[o.Off[t] : o.Off[t]+n*n]
		for i := range n {
			ji := spatial.Vec3{J[a+i], J[nv+a+i], J[2*nv+a+i]}
			if ji == (spatial.Vec3{}) {
				continue
			}
			xi := X.MulVec(ji).Scale(s)
			for k := range n {
				blk[i*n+k] += xi[0]*J[a+k] + xi[1]*J[nv+a+k] + xi[2]*J[2*nv+a+k]
			}
		}
	}
}

// addOuter adds s·g gᵀ to the tree blocks of dst for a global row g.
func (o *Output) addOuter(dst []float64, g []float64, s float64) {
	for t, tr := range o.m.Trees {
		n, a := tr.NV, tr.VOffset
		blk := dst[o.Off[t] : o.Off[t]+n*n]
		for i := range n {
			if g[a+i] == 0 {
				continue
			}
			for k := range n {
				blk[i*n+k] += s * g[a+i] * g[a+k]
			}
		}
	}
}

// pointState returns the world position and velocity of body b's point pb
// (body frame).
func pointState(c *Context, b int, pb spatial.Vec3) (x, v spatial.Vec3) {
	xb := c.WS.Pose(b)
	x = xb.Apply(pb)
	w, vo := c.WS.Velocity(b)
	return x, vo.Add(w.Cross(x.Sub(xb.P)))
}
