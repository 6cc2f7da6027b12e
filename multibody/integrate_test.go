package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// integrateVectorForm is Joint.integrate as it was before integrateFree
// (pass 189): RateWorld, Scale, Add and Normalize on Quat values, the
// free joint's translation by a loop. The reference for the tests below.
func (j *Joint) integrateVectorForm(q0, qTheta, v []float64, dt float64, q []float64) {
	switch j.Type {
	case JointFree, JointBall:
		t, w, p := qTheta[:4], v[:3], q0[:4]
		r := spatial.Quat{W: t[0], X: t[1], Y: t[2], Z: t[3]}
		rd := r.RateWorld(spatial.Vec3{w[0], w[1], w[2]})
		r0 := spatial.Quat{W: p[0], X: p[1], Y: p[2], Z: p[3]}
		rn := r0.Add(rd.Scale(dt)).Normalize()
		if j.Type == JointFree {
			x, x0, u := q[4:7], q0[4:7], v[3:6]
			for i := range 3 {
				x[i] = x0[i] + dt*u[i]
			}
		}
		o := q[:4]
		o[0], o[1], o[2], o[3] = rn.W, rn.X, rn.Y, rn.Z
	case JointCompound:
		j.compoundIntegrate(q0, qTheta, v, dt, q)
	default:
		for i := range j.Type.NQ() {
			q[i] = q0[i] + dt*v[i]
		}
	}
}

// integrateExpVectorForm is Joint.integrateExp as it was before
// integrateExpFree (pass 189): turnExp on slices and the translation by a
// loop. The reference for the tests below.
func (j *Joint) integrateExpVectorForm(q0, v []float64, dt float64, q []float64) {
	switch j.Type {
	case JointFree, JointBall:
		turnExp(q0, v, dt, q)
		if j.Type == JointFree {
			for i := range 3 {
				q[4+i] = q0[4+i] + dt*v[3+i]
			}
		}
	case JointCompound:
		qi, vi := 0, 0
		for k := range j.Parts {
			p := &j.Parts[k]
			if p.Type == JointBall {
				turnExp(q0[qi:], v[vi:], dt, q[qi:])
			} else {
				q[qi] = q0[qi] + dt*v[vi]
			}
			qi += p.Type.NQ()
			vi += p.Type.NV()
		}
	default:
		j.integrateVectorForm(q0, q0, v, dt, q)
	}
}

// TestIntegrateFreeMatchesVectorForm: integrateFree and integrateExpFree
// (and Joint.integrate's and integrateExp's free cases) give the bits of the vector form at random coordinates and
// velocities with zeros of both signs, NaN and ±Inf among them, also in
// place (q = q0 and q = qθ). A NaN matches any NaN (its payload follows
// the operands' order, which the compiler may swap; other tests here do
// the same).
func TestIntegrateFreeMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(189, 1))
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.NaN(), math.Inf(1), math.Inf(-1), 1e-300, 1e300}
	val := func() float64 {
		if r.IntN(4) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
	}
	vec := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = val()
		}
		return out
	}
	same := func(what string, got, want []float64) {
		t.Helper()
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Fatalf("%s[%d]: %v, vector form %v", what, i, got[i], want[i])
			}
		}
	}
	j := &Joint{Type: JointFree}
	for range 20000 {
		q0, qt, v, dt := vec(7), vec(7), vec(6), val()
		want := make([]float64, 7)
		j.integrateVectorForm(q0, qt, v, dt, want)
		got := make([]float64, 7)
		integrateFree((*[7]float64)(q0), (*[4]float64)(qt), (*[6]float64)(v), dt, (*[7]float64)(got))
		same("integrateFree", got, want)
		j.integrate(q0, qt, v, dt, got)
		same("integrate", got, want)
		j.integrateExpVectorForm(q0, v, dt, want)
		integrateExpFree((*[7]float64)(q0), (*[6]float64)(v), dt, (*[7]float64)(got))
		same("integrateExpFree", got, want)
		j.integrateExp(q0, v, dt, got)
		same("integrateExp", got, want)
		inPlace := append([]float64(nil), q0...)
		integrateExpFree((*[7]float64)(inPlace), (*[6]float64)(v), dt, (*[7]float64)(inPlace))
		same("integrateExpFree in place", inPlace, want)
		for _, alias := range []int{0, 1} {
			a0, at := append([]float64(nil), q0...), append([]float64(nil), qt...)
			w := append([]float64(nil), q0...)
			if alias == 0 {
				j.integrateVectorForm(w, at, v, dt, w)
				integrateFree((*[7]float64)(a0), (*[4]float64)(at), (*[6]float64)(v), dt, (*[7]float64)(a0))
				same("integrateFree in place of q0", a0, w)
			} else {
				w = append([]float64(nil), qt...)
				j.integrateVectorForm(q0, w, v, dt, w)
				integrateFree((*[7]float64)(q0), (*[4]float64)(at), (*[6]float64)(v), dt, (*[7]float64)(at))
				same("integrateFree in place of qθ", at, w)
			}
		}
	}
}

// TestIntegrateJointsMatchesVectorForm: integrateJoints, with its free,
// revolute and prismatic cases in line, gives the bits of the vector form
// body by body on a chain of every joint type, and integrateExpJoints
// those of integrateExp's vector form.
func TestIntegrateJointsMatchesVectorForm(t *testing.T) {
	x, y := spatial.Vec3{1, 0, 0}, spatial.Vec3{0, 1, 0}
	m := linearChain(t, []Joint{
		{Type: JointFree}, {Type: JointRevolute, Axis: x}, {Type: JointPrismatic, Axis: y}, {Type: JointWeld},
		{Type: JointBall}, {Type: JointPlanar}, {Type: JointUniversal}, {Type: JointRevolute, Axis: y},
		{Type: JointCompound, Parts: []JointPart{{Type: JointRevolute, Axis: x}, {Type: JointBall}}},
	})
	r := rand.New(rand.NewPCG(189, 2))
	vec := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = r.NormFloat64()
		}
		return out
	}
	for range 200 {
		q0, qt, v, dt := vec(m.NQ), vec(m.NQ), vec(m.NV), r.Float64()*0.01
		got, want := make([]float64, m.NQ), make([]float64, m.NQ)
		m.integrateJoints(q0, qt, v, dt, got)
		for i := range m.Bodies {
			b := &m.Bodies[i]
			if b.Tree < 0 || b.Joint.Type == JointWeld {
				continue
			}
			b.Joint.integrateVectorForm(q0[b.QOff:], qt[b.QOff:], v[b.VOff:], dt, want[b.QOff:])
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("q[%d]: %v, vector form %v", i, got[i], want[i])
			}
		}
		m.integrateExpJoints(q0, v, dt, got)
		for i := range m.Bodies {
			if b := &m.Bodies[i]; b.Tree >= 0 && b.Joint.Type != JointWeld {
				b.Joint.integrateExpVectorForm(q0[b.QOff:], v[b.VOff:], dt, want[b.QOff:])
			}
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("exp: q[%d]: %v, joint by joint %v", i, got[i], want[i])
			}
		}
	}
}
