package mjref

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
)

// TestFluidForces: the fluid forces (forces.Fluid, from MJCF's <option
// density viscosity wind>: the inertia-box model, and the ellipsoid model
// of fluidshape="ellipsoid" geoms) at the models' reference configuration with
// velocities v_i = 0.5 sin(1.7 i + 0.3) equal MuJoCo 2.2.2's qfrc_passive
// there (mj_passive with the joints' springs and dampers zero at these
// models' q0, so all of it is the fluid's) to 1e-12 relative.
func TestFluidForces(t *testing.T) {
	for _, c := range []struct {
		file string
		want []float64 // MuJoCo 2.2.2, mj_forward then mj_passive
	}{
		{"dm_control/suite/swimmer.xml", // density 3000
			[]float64{-0.077768802728613903, -0.012402327156478071, 0.0038950196609884068}},
		{"gymnasium/swimmer.xml", // density 4000, viscosity 0.1
			[]float64{-4.0433842083651488, -663.34917269678294, 481.9609094095058, 819.41823106026584, 244.33738289998857}},
		// two thin boxes with fluidshape="ellipsoid" on a free body, air
		// (density 1.225, viscosity 1.8e-5) and wind 0 0 1
		{"mujoco/test/engine/testdata/derivative/tumbling_thin_object_ellipsoid.xml",
			[]float64{0.00012256393627573125, 0.00019112343965115404, 0.0019686420665976272, 9.629112599406023e-06, 2.425085884392432e-06, -2.0410753098761225e-05}},
	} {
		path := filepath.Join("testdata", c.file)
		mj := run(t, path, Options{Steps: 0})
		b, mp := mappedModel(t, path, mj)
		m := b.Model
		q, v := make([]float64, m.NQ), make([]float64, m.NV)
		vmj := make([]float64, mj.NV)
		for i := range vmj {
			vmj[i] = 0.5 * math.Sin(1.7*float64(i)+0.3)
		}
		mp.QToStiction(mj.QPos0, q)
		mp.VToStiction(mj.QPos0, vmj, v)
		var fl *forces.Fluid
		for _, e := range b.Config.Forces {
			if f, ok := e.(*forces.Fluid); ok {
				fl = f
			}
		}
		if fl == nil {
			t.Fatalf("%s: no fluid element", c.file)
		}
		ws := multibody.NewWorkspace(m)
		ws.Update(q, v)
		out := forces.NewOutput(m)
		fl.Apply(&forces.Context{Model: m, WS: ws, Q: q, V: v}, out)
		// Generalized forces map by Tᵀ where v_Stiction = T v_MuJoCo.
		T := mp.Jacobian(mj.QPos0)
		got := make([]float64, mj.NV)
		for c := range mj.NV {
			for r := range mj.NV {
				got[c] += T[r*mj.NV+c] * out.F[r]
			}
		}
		if e := relErr(c.want, got); e > 1e-12 {
			t.Errorf("%s: fluid forces %v, MuJoCo %v (%.2g relative)", c.file, got, c.want, e)
		} else {
			t.Logf("%s: fluid forces within %.2g of MuJoCo's", c.file, e)
		}
	}
}
