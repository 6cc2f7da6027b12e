package mjref

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// eulerOf returns the MJCF document doc with MuJoCo's RK4 replaced by its
// Euler integrator.
func eulerOf(t *testing.T, doc string) string {
	t.Helper()
	return replaceOnce(t, doc, `integrator="RK4"`, `integrator="Euler"`, 1)
}

// TestEulerContactRowsMuJoCo: the mujoco-euler scheme solves MJCF's soft
// contacts with MuJoCo 2.2.2's rows, as mj_Euler does (only touching
// contacts, MuJoCo's R and reference acceleration, its pyramid, impulses
// found with M and applied through M + δt B; sim's startMuJoCoRows), so
// models follow MuJoCo's Euler past their first contact. Measured max
// |Δqpos| over the steps compared: sphere 1.4e-17, capsule 2.7e-16, box
// resting 4.6e-14, box sliding under (2, 2) N 1.6e-15, with <option
// impratio="3"> (the pyramid edges' R divided by it, contact.Params.ImpRatio)
// the box creeping under (1, 0.5) N 1.5e-14 and sliding 5.5e-15, the
// capsule at impratio 2 4.0e-16 (with the edges J_n ± (μ/√impratio) J_t
// instead, MuJoCo's contact mu: 0.31 sliding), dm_control's
// hopper 3.7e-14, walker 1.8e-16, quadruped 6.4e-16 (with SAP's speculative
// contacts: quadruped 1.3e-3 one step before MuJoCo's first contact),
// humanoid 1.2e-13, MuJoCo's humanoid 2.6e-13 and Gymnasium's half_cheetah
// 2.8e-15 over 100 steps. The humanoids' pairs mix two solrefs (the limbs'
// 0.015 1, the floor's 0.02 1): with the means of the two sides' K and
// 1/B in place of K and B of the mixed solref (contact.MixSolRef) they
// parted by 9.9e-5 in the first step in contact; the half_cheetah's steps
// in contact were substepped (contact.Params.SubstepTolerance, now not for
// MuJoCo's rows): 2.6e-3 five steps after the touch. Levels as measured,
// rounded up to 1e-12 for the solvers' tolerances.
func TestEulerContactRowsMuJoCo(t *testing.T) {
	for _, c := range []struct {
		name, path string
		after      int     // steps compared from MuJoCo's first contact on
		level      float64 // max |Δqpos| allowed over them
	}{
		{"sphere", writeModel(t, eulerOf(t, rk4SphereDrop)), 150, 1e-12},
		{"capsule", writeModel(t, eulerOf(t, rk4CapsuleDrop)), 150, 1e-12},
		{"box resting", writeModel(t, eulerOf(t, fmt.Sprintf(boxOnPlane, "0 0 -9.81", ""))), 500, 1e-12},
		{"box sliding", writeModel(t, eulerOf(t, fmt.Sprintf(boxOnPlane, "2 2 -9.81", ""))), 500, 1e-12},
		{"box creeping, impratio 3", writeModel(t, eulerOf(t, fmt.Sprintf(boxOnPlane, "1 0.5 -9.81", ` impratio="3"`))), 500, 1e-12},
		{"box sliding, impratio 3", writeModel(t, eulerOf(t, fmt.Sprintf(boxOnPlane, "2 2 -9.81", ` impratio="3"`))), 500, 1e-12},
		{"capsule, impratio 2", writeModel(t, replaceOnce(t, eulerOf(t, rk4CapsuleDrop), `timestep="0.002"`, `timestep="0.002" impratio="2"`, 1)), 150, 1e-12},
		{"dm_control hopper", filepath.Join("testdata", "dm_control/suite/hopper.xml"), 100, 1e-12},
		{"dm_control walker", filepath.Join("testdata", "dm_control/suite/walker.xml"), 100, 1e-12},
		{"dm_control quadruped", filepath.Join("testdata", "dm_control/suite/quadruped.xml"), 100, 1e-12},
		{"dm_control humanoid", filepath.Join("testdata", "dm_control/suite/humanoid.xml"), 100, 1e-12},
		{"MuJoCo humanoid", filepath.Join("testdata", "mujoco/model/humanoid/humanoid.xml"), 100, 1e-12},
		{"Gymnasium half_cheetah", filepath.Join("testdata", "gymnasium/half_cheetah.xml"), 100, 1e-12},
	} {
		first := firstContact(t, c.path, sim.MuJoCoEuler)
		worst, _, _ := afterContact(t, c.path, sim.MuJoCoEuler, first+c.after-1)
		t.Logf("%s: first contact at step %d; max |Δqpos| over the %d steps from it %.3g", c.name, first, c.after, worst)
		if !(worst <= c.level) {
			t.Errorf("%s: max |Δqpos| %.3g over %d steps from the first contact (want ≤ %g)", c.name, worst, c.after, c.level)
		}
	}
}
