package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Weld holds frame FrameB of body B (pose in B's frame) on frame FrameA of
// body A (or a world pose when BodyA is −1): 6 rows (solver.Bilateral).
// Rows 0–2: g = p_FB − p_FA in the world frame, J = J_B(p_FB) − J_A(p_FA);
// rows 3–5: g = R_WFA log(R_WFAᵀ R_WFB), the rotation vector of the
// relative rotation in the world frame, J = J_ωB − J_ωA (exact at g = 0, the
// regime of a weld). Compliance is the translational stiffness (N/m) and
// the dissipation; RotStiffness is the rotational stiffness (N·m/rad, 0 for
// near-rigid).
//
// With Compliance.SolRef set the weld is MuJoCo 2.2.2's soft weld instead
// (softWeld): rows 3–5 are the vector part of the relative quaternion and
// TorqueScale (MuJoCo's torquescale, ≥ 0; 0 leaves the orientation free)
// multiplies their Jacobian; RotStiffness is unused.
type Weld struct {
	Name           string
	BodyA, BodyB   int
	FrameA, FrameB spatial.Pose
	Compliance     Compliance
	RotStiffness   float64
	TorqueScale    float64
}

func (w *Weld) validate(m *multibody.Model) error {
	if err := pair(m, w.BodyA, w.BodyB); err != nil {
		return err
	}
	for _, f := range [2]spatial.Pose{w.FrameA, w.FrameB} {
		if !f.P.IsFinite() || !f.R.IsFinite() || math.Abs(f.R.Norm()-1) > 1e-9 {
			return errf("frame %v must be finite with a unit quaternion", f)
		}
	}
	if err := w.Compliance.validate(); err != nil {
		return err
	}
	if !(w.TorqueScale >= 0) || math.IsInf(w.TorqueScale, 1) {
		return errf("torque scale %v: want a finite value ≥ 0", w.TorqueScale)
	}
	return Compliance{Stiffness: w.RotStiffness}.validate()
}

// worldFrame returns the world pose of frame f of body b (b = −1: f is a
// world pose).
func worldFrame(kin *multibody.Workspace, b int, f spatial.Pose) spatial.Pose {
	if b < 0 {
		return f
	}
	return kin.Pose(b).Compose(f)
}

// RotationVector returns the rotation vector θ â of the unit quaternion q,
// θ ∈ [0, π].
func RotationVector(q spatial.Quat) spatial.Vec3 {
	theta, axis := quatAngle(q)
	return axis.Scale(theta)
}

// weld appends the weld's block.
func (a *Assembler) weld(c *asmCtx, w *Weld, i int) {
	if w.Compliance.mujoco() {
		a.softWeld(c, w, i)
		return
	}
	fa, fb := worldFrame(c.kin, w.BodyA, w.FrameA), worldFrame(c.kin, w.BodyB, w.FrameB)
	gt := fb.P.Sub(fa.P)
	gr := fa.R.Rotate(RotationVector(fa.R.Conj().Mul(fb.R)))
	k, row := a.weldRows(c, w, fa.P, fb.P, axes[:], 1)
	rot := Compliance{Stiffness: w.RotStiffness, Dissipation: w.Compliance.Dissipation}
	vec := -1
	if w.Compliance.rigid() && rot.rigid() {
		vec = a.diagonalize(c) // near-rigid rows may mix translation and rotation
	}
	g := a.rotate(vec, [6]float64{gt[0], gt[1], gt[2], gr[0], gr[1], gr[2]}, 6)
	for r := range 6 {
		cp := w.Compliance
		if vec < 0 && r >= 3 {
			cp = rot
		}
		a.setEq(c, row+r, r, &cp, g[r])
	}
	a.add(entry{typ: TypeWeld, item: int32(i), block: int32(k), violation: math.Hypot(gt.Norm(), gr.Norm()), bound: math.Inf(1), vec: int32(vec)})
}

// weldRows emits a weld's block: rows 0–2 the world-axis velocity of B's
// point pb relative to A's point pa, rows 3–5 sign·rot[k]·(ω_B − ω_A).
func (a *Assembler) weldRows(c *asmCtx, w *Weld, pa, pb spatial.Vec3, rot []spatial.Vec3, sign float64) (int, int) {
	a.begin(6)
	a.addPoint(c, w.BodyB, pb, 0, axes[:], 1)
	a.addPoint(c, w.BodyA, pa, 0, axes[:], -1)
	a.addAngular(c, w.BodyB, 3, rot, sign)
	a.addAngular(c, w.BodyA, 3, rot, -sign)
	return a.emit(c, solver.Bilateral)
}

// softWeld appends the block of MuJoCo 2.2.2's soft weld
// (engine_core_constraint.c, mj_instantiateEquality, mjEQ_WELD), with
// frame A MuJoCo's body1 frame times relpose and frame B its anchor frame
// on body2:
//
//	rows 0–2: g = p_FB − p_FA, J = J_B(p_FB) − J_A(p_FA) (world axes);
//	rows 3–5: g = vec(q_e), q_e = q_FB⁻¹ q_FA (MuJoCo's neg(q1)·q0·relpose),
//	          J = s ½ vec(q_FB⁻¹ (0, ω_A − ω_B) q_FA), the exact rate of
//	          vec(q_e) (q̇ = ½ (0, ω) q for world ω) times s = TorqueScale.
//
// MuJoCo's impedance d is taken at the norm of (g_0..2, s g_3..5)
// (getposdim) and R = (1 − d)/d w on all six rows with w = Weight
// (Compliance.softAt; MuJoCo 2.2.2's mj_diagApprox gives all six rows the
// translational body_invweight0: its weld counter is reset on every
// equality row). With one R for all rows the block may be diagonalized
// like a ball's. The report basis maps the rows' impulses back to the
// impulse and the angular impulse on B (world frame).
func (a *Assembler) softWeld(c *asmCtx, w *Weld, i int) {
	fa, fb := worldFrame(c.kin, w.BodyA, w.FrameA), worldFrame(c.kin, w.BodyB, w.FrameB)
	gt := fb.P.Sub(fa.P)
	inv := fb.R.Conj()
	qe := inv.Mul(fa.R)
	var dirs [3]spatial.Vec3 // row k of the rotation rows: dirs[k]·(ω_A − ω_B)
	for j, e := range axes {
		col := inv.Mul(spatial.Quat{X: e[0], Y: e[1], Z: e[2]}).Mul(fa.R).Vec().Scale(0.5 * w.TorqueScale)
		for k := range 3 {
			dirs[k][j] = col[k]
		}
	}
	k, row := a.weldRows(c, w, fa.P, fb.P, dirs[:], -1)
	vec := a.diagonalize(c)
	ge := qe.Vec()
	g := a.rotate(vec, [6]float64{gt[0], gt[1], gt[2], ge[0], ge[1], ge[2]}, 6)
	d := ImpedanceOf(&w.Compliance.SolImp, math.Hypot(gt.Norm(), w.TorqueScale*ge.Norm()))
	for r := range 6 {
		c.p.R[row+r], c.p.VHat[row+r] = w.Compliance.softAt(d, a.softWeight(c, w.Compliance.Weight, r), g[r], a.rowVelocity(c, r), c.prm.Beta, c.in.DT)
		if a.null[r] {
			c.p.VHat[row+r] = 0
		}
	}
	theta, _ := quatAngle(qe)
	a.add(entry{typ: TypeWeld, item: int32(i), block: int32(k), violation: math.Hypot(gt.Norm(), theta), bound: math.Inf(1), vec: int32(a.weldBasis(vec, &dirs))})
}

// weldBasis stores the soft weld's report basis T = diag(I, −Dᵀ) V (V the
// row basis at offset off, the identity when off < 0; D the rotation rows'
// directions): T γ' is the impulse on B and B's angular impulse, world
// frame. It returns T's offset in a.vecs.
func (a *Assembler) weldBasis(off int, dirs *[3]spatial.Vec3) int {
	const n = 6
	if off < 0 {
		off = len(a.vecs)
		for r := range n {
			for k := range n {
				a.vecs = append(a.vecs, b2f(r == k))
			}
		}
	}
	v := a.vecs[off : off+n*n]
	for k := range n { // column k: rows 3–5 ← −Dᵀ (rows 3–5 of column k)
		x := [3]float64{v[3*n+k], v[4*n+k], v[5*n+k]}
		for j := range 3 {
			v[(3+j)*n+k] = -(dirs[0][j]*x[0] + dirs[1][j]*x[1] + dirs[2][j]*x[2])
		}
	}
	return off
}

// b2f returns 1 for true, 0 for false.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
