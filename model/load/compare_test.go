package load

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// setQ sets the same joint angles on two models whose joints are listed in
// the same order.
func setQ(q []float64, bs ...*scene.Built) {
	for _, b := range bs {
		copy(b.State.Q, q)
	}
}

func maxDiff(A, B [][]float64) (d, scale float64) {
	for i := range A {
		for j := range A[i] {
			d = math.Max(d, math.Abs(A[i][j]-B[i][j]))
			scale = math.Max(scale, math.Abs(A[i][j]))
		}
	}
	return d, scale
}

// copyByJointName sets b's joint coordinates from a's, matching joints
// by name.
func copyByJointName(a, b *scene.Built) {
	for _, ja := range a.Model.Bodies {
		if ja.Tree < 0 || ja.Joint.Name == "" {
			continue
		}
		for _, jb := range b.Model.Bodies {
			if jb.Tree >= 0 && jb.Joint.Name == ja.Joint.Name {
				copy(b.State.Q[jb.QOff:jb.QOff+jb.Joint.NQ()], a.State.Q[ja.QOff:ja.QOff+ja.Joint.NQ()])
			}
		}
	}
}

// reorder returns b's mass matrix with rows and columns in the order of
// a's 1-dof joints, matched by name.
func reorder(a, b *scene.Built, Mb [][]float64) [][]float64 {
	var idx []int
	for _, ja := range a.Model.Bodies {
		if ja.Tree < 0 || ja.Joint.NV() != 1 {
			continue
		}
		for _, jb := range b.Model.Bodies {
			if jb.Tree >= 0 && jb.Joint.Name == ja.Joint.Name {
				idx = append(idx, jb.VOff)
			}
		}
	}
	out := make([][]float64, len(idx))
	for i := range idx {
		out[i] = make([]float64, len(idx))
		for j := range idx {
			out[i][j] = Mb[idx[i]][idx[j]]
		}
	}
	return out
}

// frameDiff returns the position and rotation-angle differences of two
// bodies' world poses.
func frameDiff(a, b spatial.Pose) (float64, float64) {
	r := a.R.Conj().Mul(b.R)
	return a.P.Sub(b.P).Norm(), 2 * math.Asin(math.Min(1, r.Vec().Norm()))
}

// TestIiwaThreeFormats compares Drake's iiwa URDF and SDF and Menagerie's
// MJCF at 20 random joint configurations: forward kinematics of every
// link (the three files place the link frames identically) and M(q).
//
// URDF and MJCF place every link identically (to 1e-12). The SDF writes
// its joint rotations rounded to six digits (1.5708 for π/2), so its links
// are off by up to 5e-6 m and rad and its M(q) by 1.5e-7 (relative).
// The MJCF's M(q) differs by 6e-4 (relative), and the whole
// difference is two edits Menagerie made to the inertias: link 1's
// principal moments about x and y are swapped (0.0333, 0.033 instead of
// 0.033, 0.0333), and link 6's moments about y and z are swapped by its
// inertial quat "1 1 0 0" (0.0036, 0.0047 instead of 0.0047, 0.0036).
// With the URDF's values put back, M(q) agrees to round-off.
func TestIiwaThreeFormats(t *testing.T) {
	u, _ := load(t, iiwaURDF, model.Options{})
	s, _ := load(t, iiwaSDF, model.Options{})
	j, _ := load(t, iiwaMJCF, model.Options{})
	// The URDF's transmissions and the SDF's joints carry Drake's
	// reflected rotor inertia gear_ratio² × rotor_inertia as armature
	// (160² × 1.321e-4 = 3.38 kg·m² on joints 1 and 2); Menagerie's MJCF
	// has none: give the MJCF model the same armature for the comparison.
	for k := 1; k <= 7; k++ {
		ub := u.Model.Bodies[u.Model.BodyByName("iiwa_link_"+string(rune('0'+k)))]
		if k <= 2 && math.Abs(ub.Joint.Armature-160*160*1.321e-4) > 1e-12 {
			t.Errorf("joint %d armature %g, want 160² × 1.321e-4", k, ub.Joint.Armature)
		}
		j.Model.Bodies[j.Model.BodyByName("link"+string(rune('0'+k)))].Joint.Armature = ub.Joint.Armature
	}
	r := rand.New(rand.NewPCG(3, 4))
	var worstFK, worstFKSDF, worstSDF, worstMJ, worstFixed float64
	for range 20 {
		randomize(r, u.Model, u.State)
		setQ(u.State.Q, j)
		copyByJointName(u, s)
		for k := range 8 {
			un := "iiwa_link_" + string(rune('0'+k))
			jn := "link" + string(rune('0'+k))
			if k == 0 {
				jn = "base"
			}
			xu := u.Model.BodyPose(u.State, u.Model.BodyByName(un))
			dp, da := frameDiff(xu, j.Model.BodyPose(j.State, j.Model.BodyByName(jn)))
			worstFK = math.Max(worstFK, math.Max(dp, da))
			dp, da = frameDiff(xu, s.Model.BodyPose(s.State, s.Model.BodyByName(un)))
			worstFKSDF = math.Max(worstFKSDF, math.Max(dp, da))
		}
		Mu := massMatrix(u.Model, u.State)
		d, sc := maxDiff(Mu, massMatrix(s.Model, s.State))
		worstSDF = math.Max(worstSDF, d/sc)
		d, sc = maxDiff(Mu, massMatrix(j.Model, j.State))
		worstMJ = math.Max(worstMJ, d/sc)
	}
	// Put the URDF's link 1 and link 6 inertias into the MJCF model.
	for _, k := range []int{1, 6} {
		un, jn := "iiwa_link_"+string(rune('0'+k)), "link"+string(rune('0'+k))
		j.Model.Bodies[j.Model.BodyByName(jn)].Inertia.Icom = u.Model.Bodies[u.Model.BodyByName(un)].Inertia.Icom
	}
	r = rand.New(rand.NewPCG(3, 4))
	for range 20 {
		randomize(r, u.Model, u.State)
		setQ(u.State.Q, j)
		d, sc := maxDiff(massMatrix(u.Model, u.State), massMatrix(j.Model, j.State))
		worstFixed = math.Max(worstFixed, d/sc)
	}
	t.Logf("max link pose difference: MJCF %.2g, SDF %.2g; M(q) relative difference: SDF %.2g, MJCF %.2g, MJCF with link 1 and 6 inertias as in the URDF %.2g", worstFK, worstFKSDF, worstSDF, worstMJ, worstFixed)
	if worstFK > 1e-12 || worstFixed > 1e-12 || worstFKSDF > 1e-5 || worstSDF > 1e-6 {
		t.Errorf("URDF/SDF/MJCF disagree: FK MJCF %.3g, SDF %.3g, M SDF %.3g, M MJCF (inertias aligned) %.3g", worstFK, worstFKSDF, worstSDF, worstFixed)
	}
	if worstMJ < 1e-4 {
		t.Errorf("MJCF M(q) differs by only %.3g: the inertia edits should show", worstMJ)
	}
}

// TestAllegroThreeFormats compares Drake's Allegro URDF and SDF and
// Menagerie's MJCF.
//
//   - URDF and SDF: the SDF merges the palm into hand_root and each
//     fingertip into its distal link, and writes its frame angles rounded
//     (-0.087267 for 5°): joint frames agree to 1e-6 m and 1e-5 rad. Its
//     merged distal links carry the summed mass (0.0264 kg) and an inertia
//     written to four digits, but no inertial pose: their centre of mass
//     stays at the link origin instead of the composite's, 17 mm further
//     out, so M(q) differs by up to 15%. With the URDF's exact composite of
//     distal link and fingertip put in, M(q) agrees to 1.2e-5 (the
//     rounding of the SDF's values).
//   - URDF and MJCF: the finger joints sit at the same places relative to
//     the palm (1e-5 m), so forward kinematics agrees; the masses do not:
//     the URDF carries the Allegro's catalogue masses (0.9549 kg) while
//     Menagerie derives them from its visual meshes at 800 kg/m³
//     (TestMJCFHandMass), so M(q) is not compared.
func TestAllegroThreeFormats(t *testing.T) {
	u, _ := load(t, handURDF, model.Options{})
	s, _ := load(t, handSDF, model.Options{})
	j, _ := load(t, handMJCF, model.Options{})
	fingers := []string{"ff", "mf", "rf", "th"}
	parts := []string{"base", "proximal", "medial", "distal"}
	r := rand.New(rand.NewPCG(5, 6))
	var worstSDFp, worstSDFa, worstM, worstMJ, worstLumped float64
	for range 20 {
		randomize(r, u.Model, u.State)
		setQ(u.State.Q, j)
		copyByJointName(u, s)
		palmU := u.Model.BodyPose(u.State, u.Model.BodyByName("palm_link"))
		palmJ := j.Model.BodyPose(j.State, j.Model.BodyByName("palm"))
		for k := range 16 {
			un := "link_" + itoa(k)
			xu := u.Model.BodyPose(u.State, u.Model.BodyByName(un))
			dp, da := frameDiff(xu, s.Model.BodyPose(s.State, s.Model.BodyByName(un)))
			worstSDFp, worstSDFa = math.Max(worstSDFp, dp), math.Max(worstSDFa, da)
			jn := fingers[k/4] + "_" + parts[k%4]
			xj := j.Model.BodyPose(j.State, j.Model.BodyByName(jn))
			pu := palmU.ApplyInv(xu.P)
			pj := palmJ.ApplyInv(xj.P)
			worstMJ = math.Max(worstMJ, pu.Sub(pj).Norm())
		}
		d, sc := maxDiff(massMatrix(u.Model, u.State), reorder(u, s, massMatrix(s.Model, s.State)))
		worstM = math.Max(worstM, d/sc)
	}
	// Give the SDF's distal links the URDF's composite of distal link and
	// fingertip: M(q) then agrees to the SDF's rounding.
	for _, k := range []int{3, 7, 11, 15} {
		n := "link_" + itoa(k)
		in := composite(u, n, n+"_tip")
		s.Model.Bodies[s.Model.BodyByName(n)].Inertia = in
	}
	r = rand.New(rand.NewPCG(5, 6))
	for range 20 {
		randomize(r, u.Model, u.State)
		copyByJointName(u, s)
		d, sc := maxDiff(massMatrix(u.Model, u.State), reorder(u, s, massMatrix(s.Model, s.State)))
		worstLumped = math.Max(worstLumped, d/sc)
	}
	t.Logf("URDF vs SDF: joint frames %.2g m, %.2g rad; M(q) relative %.2g, %.2g with the URDF's fingertip composites. URDF vs MJCF: finger joints relative to the palm %.2g m", worstSDFp, worstSDFa, worstM, worstLumped, worstMJ)
	if worstSDFp > 1e-6 || worstSDFa > 1e-5 || worstLumped > 3e-5 || worstMJ > 1e-6 {
		t.Errorf("formats disagree: SDF %.3g m %.3g rad, M (composites) %.3g; MJCF %.3g m", worstSDFp, worstSDFa, worstLumped, worstMJ)
	}
	if worstM < 1e-2 {
		t.Errorf("SDF M(q) differs by only %.3g: the fingertip lumping should show", worstM)
	}
}

// composite returns the mass properties of URDF bodies names (the first
// one's frame; the others welded to it) at q = 0, in the first body's frame.
func composite(b *scene.Built, names ...string) spatial.SpatialInertia {
	m := b.Model
	x0 := m.BodyPose(b.State, m.BodyByName(names[0]))
	var total float64
	var first spatial.Vec3
	type part struct {
		m float64
		c spatial.Vec3
		I spatial.Mat3
	}
	var parts []part
	for _, n := range names {
		body := m.Bodies[m.BodyByName(n)]
		x := x0.Inverse().Compose(m.BodyPose(b.State, m.BodyByName(n)))
		c := x.Apply(body.Inertia.Com)
		parts = append(parts, part{body.Inertia.Mass, c, spatial.RotateInertia(x.R.RotMat(), body.Inertia.Icom)})
		total += body.Inertia.Mass
		first = first.AddScaled(body.Inertia.Mass, c)
	}
	com := first.Scale(1 / total)
	var I spatial.Mat3
	for _, p := range parts {
		d := p.c.Sub(com)
		I = I.Add(p.I).Add(spatial.Identity3().Scale(p.m * d.Dot(d)).Sub(spatial.Outer(d, d).Scale(p.m)))
	}
	return spatial.SpatialInertia{Mass: total, Com: com, Icom: I}
}

func itoa(k int) string {
	if k < 10 {
		return string(rune('0' + k))
	}
	return "1" + string(rune('0'+k-10))
}

// TestIiwaSDFRelativeTo compares Drake's iiwa14_no_collision.sdf, which
// places its links relative to their joints and its joints relative to
// their parent links (SDFormat 1.7 relative_to), with the URDF: this file
// writes its angles in full, so link poses and M(q) agree to round-off
// (2.5e-16 and 1.1e-15 measured).
func TestIiwaSDFRelativeTo(t *testing.T) {
	u, _ := load(t, iiwaURDF, model.Options{})
	s, _ := load(t, "drake_models/iiwa_description/sdf/iiwa14_no_collision.sdf", model.Options{})
	r := rand.New(rand.NewPCG(7, 8))
	var worstFK, worstM float64
	for range 20 {
		randomize(r, u.Model, u.State)
		copyByJointName(u, s)
		for k := range 8 {
			n := "iiwa_link_" + itoa(k)
			dp, da := frameDiff(u.Model.BodyPose(u.State, u.Model.BodyByName(n)), s.Model.BodyPose(s.State, s.Model.BodyByName(n)))
			worstFK = math.Max(worstFK, math.Max(dp, da))
		}
		d, sc := maxDiff(massMatrix(u.Model, u.State), reorder(u, s, massMatrix(s.Model, s.State)))
		worstM = math.Max(worstM, d/sc)
	}
	t.Logf("link poses agree to %.2g, M(q) to %.2g (relative)", worstFK, worstM)
	if worstFK > 1e-12 || worstM > 1e-12 {
		t.Errorf("relative_to SDF vs URDF: FK %.3g, M %.3g", worstFK, worstM)
	}
}
