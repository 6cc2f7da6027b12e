package urdf

import (
	"fmt"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
)

// DampedScheme is the scheme of a URDF model with damped joints: MuJoCo's
// Euler (sim.MuJoCoEuler), which takes joint damping implicitly,
// v* = v0 + δt (M + δt B)⁻¹ k(q0, v0) (MuJoCo 2.2.2's mj_Euler), as the
// MJCF import does. Symplectic Euler takes the damping force −B v
// explicitly, which is stable only for δt < 2 m_eff/B: a light link on a
// damped joint (iCub's fingers: m_eff ~ 1e-6 kg·m², B = 0.06 N·m·s/rad,
// δt = 1 ms) is far beyond it and the run diverges.
const DampedScheme = "mujoco-euler"

// dampedJoint records a joint whose <dynamics damping> is positive.
type dampedJoint struct {
	e       *xmlutil.Element // the <dynamics> element
	name    string
	damping float64
}

// chooseScheme sets the scene's scheme to DampedScheme when a joint is
// damped, and says so in a warning naming the file, the first damped
// joint and how many there are. The user's --scheme, --set scheme=... or
// an including scene's scheme overrides it.
func (im *importer) chooseScheme() {
	if len(im.damped) == 0 {
		return
	}
	im.out.Scene.Scheme = DampedScheme
	d := im.damped[0]
	more := ""
	if n := len(im.damped); n > 1 {
		more = fmt.Sprintf(" and %d more damped joints", n-1)
	}
	why := fmt.Sprintf("joint %q has damping %g%s: scheme %s (joint damping implicit, as the MJCF import does), since symplectic Euler's explicit damping diverges on light damped links; --scheme overrides it", d.name, d.damping, more, DampedScheme)
	im.r.Warnf(d.e, "damping", "%s", why)
	im.out.SchemeChoice = &model.SchemeChoice{Scheme: DampedScheme, Why: fmt.Sprintf("%s:%d: %s", im.r.File, d.e.Line, why)}
}
