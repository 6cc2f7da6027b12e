package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// jacobianWrench adds J_pᵀ f and then (unless point) J_ωᵀ τ to F from
// the global 3×NV Jacobians that PointJacobian and AngularJacobian make,
// as forces' Output does (scatter, then addJtF): what AddWrench must give.
func (ws *Workspace) jacobianWrench(b int, p, f, tq spatial.Vec3, point bool, F []float64) {
	m := ws.m
	nv, local := m.NV, make([]float64, 3*m.NV)
	for pass, v := range []spatial.Vec3{f, tq} {
		if pass == 1 && point {
			break
		}
		J := make([]float64, 3*nv)
		var t int
		if pass == 0 {
			t = ws.PointJacobian(b, p, local)
		} else {
			t = ws.AngularJacobian(b, local)
		}
		if t >= 0 {
			tr := &m.Trees[t]
			for r := range 3 {
				copy(J[r*nv+tr.VOffset:r*nv+tr.VOffset+tr.NV], local[r*tr.NV:(r+1)*tr.NV])
			}
		}
		for j := range nv {
			F[j] += J[j]*v[0] + J[nv+j]*v[1] + J[2*nv+j]*v[2]
		}
	}
}

// TestKin9AddWrenchMatchesJacobians: AddWrench gives the bits of adding
// J_pᵀ f and J_ωᵀ τ from the Jacobians, on every body of random forests
// of four root joint types, onto forces of +0 and of random values, with
// and without the moment (a nil τ: J_pᵀ f alone, as tendon's addPoint); it
// declines (adding nothing) a body welded to the world, a lone free body
// and non-finite inputs.
func TestKin9AddWrenchMatchesJacobians(t *testing.T) {
	for _, jt := range []JointType{JointRevolute, JointPrismatic, JointBall, JointFree} {
		r := rand.New(rand.NewPCG(9, 90+uint64(jt)))
		m, s := randomForest(r, jt)
		ws := NewWorkspace(m)
		ws.Update(s.Q, s.V)
		for b := range m.Bodies {
			for trial := range 8 {
				p, f, tq := rv(r).Scale(3), rv(r).Scale(10), rv(r)
				got := make([]float64, m.NV)
				if trial%2 == 1 {
					for i := range got {
						got[i] = r.NormFloat64()
					}
				}
				want := append([]float64(nil), got...)
				tp := &tq
				if trial >= 4 {
					tp = nil
				}
				if !ws.AddWrench(b, &p, &f, tp, got) {
					if m.Bodies[b].Tree >= 0 {
						t.Fatalf("joint type %v, body %d: AddWrench declined a moving body", jt, b)
					}
					continue
				}
				ws.jacobianWrench(b, p, f, tq, tp == nil, want)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("joint type %v, body %d, F[%d] = %v, from the Jacobians %v", jt, b, i, got[i], want[i])
					}
				}
			}
		}
		// Non-finite inputs: declined, F untouched.
		b := len(m.Bodies) - 1
		F := make([]float64, m.NV)
		ok := spatial.Vec3{1, 2, 3}
		for _, bad := range []spatial.Vec3{{math.NaN(), 0, 0}, {0, math.Inf(1), 0}, {0, 0, math.Inf(-1)}} {
			if ws.AddWrench(b, &bad, &ok, &ok, F) || ws.AddWrench(b, &ok, &bad, &ok, F) || ws.AddWrench(b, &ok, &ok, &bad, F) {
				t.Fatalf("AddWrench took the non-finite %v", bad)
			}
		}
		for i, x := range F {
			if math.Float64bits(x) != 0 {
				t.Fatalf("a declined AddWrench wrote F[%d] = %v", i, x)
			}
		}
	}
	// A lone free body: PointJacobian's freePointJacobian, declined.
	m := &Model{}
	b, err := m.AddBody("free", rinertia(rand.New(rand.NewPCG(9, 9))), Joint{Type: JointFree, Parent: -1})
	if err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(m)
	s := m.NewState()
	ws.Update(s.Q, s.V)
	p := spatial.Vec3{1, 2, 3}
	if ws.AddWrench(b, &p, &p, &p, make([]float64, m.NV)) {
		t.Fatal("AddWrench took a lone free body")
	}
}
