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
type Weld struct {
	Name           string
	BodyA, BodyB   int
	FrameA, FrameB spatial.Pose
	Compliance     Compliance
	RotStiffness   float64
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
	fa, fb := worldFrame(c.kin, w.BodyA, w.FrameA), worldFrame(c.kin, w.BodyB, w.FrameB)
	gt := fb.P.Sub(fa.P)
	gr := fa.R.Rotate(RotationVector(fa.R.Conj().Mul(fb.R)))
	a.begin(6)
	a.addPoint(c, w.BodyB, fb.P, 0, axes[:], 1)
	a.addPoint(c, w.BodyA, fa.P, 0, axes[:], -1)
	a.addAngular(c, w.BodyB, 3, axes[:], 1)
	a.addAngular(c, w.BodyA, 3, axes[:], -1)
	k, row := a.emit(c, solver.Bilateral)
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
		a.setEq(c, row+r, r, cp, g[r])
	}
	a.add(entry{typ: TypeWeld, item: i, block: k, nblocks: 1, violation: math.Hypot(gt.Norm(), gr.Norm()), bound: math.Inf(1), vec: vec})
}
