package spatial

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randVec(r *rand.Rand) Vec3 { return Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()} }

func randQuat(r *rand.Rand) Quat {
	return Quat{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func vecNear(t *testing.T, what string, got, want Vec3, tol float64) {
	t.Helper()
	if got.Sub(want).Norm() > tol {
		t.Errorf("%s = %v, want %v (tol %g)", what, got, want, tol)
	}
}

func TestQuatRotationMatchesMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		q, v := randQuat(r), randVec(r)
		R := q.RotMat()
		vecNear(t, "Rotate", q.Rotate(v), R.MulVec(v), 1e-14*v.Norm()+1e-15)
		if d := R.Det(); !near(d, 1, 1e-13) {
			t.Fatalf("det R = %v", d)
		}
		rtr := R.T().Mul(R)
		for i := range 3 {
			vecNear(t, "RᵀR row", Vec3(rtr[i]), Identity3()[i], 1e-14)
		}
	}
}

func TestQuatProductComposesRotations(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		q, p, v := randQuat(r), randQuat(r), randVec(r)
		vecNear(t, "(qp)v", q.Mul(p).Rotate(v), q.Rotate(p.Rotate(v)), 1e-13)
		vecNear(t, "q⁻¹qv", q.Conj().Rotate(q.Rotate(v)), v, 1e-13)
	}
}

func TestAxisAngle(t *testing.T) {
	q := QuatFromAxisAngle(Vec3{0, 0, 2}, math.Pi/2)
	vecNear(t, "Rz(90°) x", q.Rotate(Vec3{1, 0, 0}), Vec3{0, 1, 0}, 1e-15)
	if QuatFromAxisAngle(Vec3{}, 1) != QuatIdentity() {
		t.Error("zero axis should give the identity")
	}
}

// expWorld returns the orientation after rotating q by the constant world
// angular velocity w for time h.
func expWorld(q Quat, w Vec3, h float64) Quat {
	return QuatFromAxisAngle(w, w.Norm()*h).Mul(q)
}

// TestQuatRatesMatchFiniteDifferences checks notes §0.2 eq. 0.1 (world ω)
// and its body-frame form against central differences of the exact flow.
func TestQuatRatesMatchFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const h = 1e-6
	for range 100 {
		q, w := randQuat(r), randVec(r)
		fd := expWorld(q, w, h).Add(expWorld(q, w, -h).Scale(-1)).Scale(1 / (2 * h))
		got := q.RateWorld(w)
		if d := got.Add(fd.Scale(-1)).Norm(); d > 1e-8 {
			t.Fatalf("RateWorld = %v, finite difference %v", got, fd)
		}
		wb := q.Conj().Rotate(w) // the same angular velocity in the body frame
		if d := q.RateBody(wb).Add(got.Scale(-1)).Norm(); d > 1e-14 {
			t.Fatalf("RateBody(Rᵀω) = %v, RateWorld(ω) = %v", q.RateBody(wb), got)
		}
	}
}

func TestOrthonormalFrame(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ns := []Vec3{{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, -1, 0}}
	for range 200 {
		n, _ := randVec(r).Normalize()
		ns = append(ns, n)
	}
	for _, n := range ns {
		t1, t2 := Orthonormal(n)
		for _, c := range [][2]float64{{t1.Dot(t1), 1}, {t2.Dot(t2), 1}, {t1.Dot(t2), 0}, {t1.Dot(n), 0}, {t2.Dot(n), 0}} {
			if !near(c[0], c[1], 1e-14) {
				t.Fatalf("frame for n = %v not orthonormal: t1 %v t2 %v", n, t1, t2)
			}
		}
		vecNear(t, "t1 × t2", t1.Cross(t2), n, 1e-14)
	}
}

func TestMat3InverseAndCholesky(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 100 {
		var a Mat3
		for i := range 3 {
			a[i] = randVec(r)
		}
		spd := a.Mul(a.T()).Add(Identity3().Scale(0.1))
		inv, ok := spd.Inverse()
		if !ok {
			t.Fatal("SPD matrix reported singular")
		}
		prod := spd.Mul(inv)
		for i := range 3 {
			vecNear(t, "A A⁻¹ row", Vec3(prod[i]), Identity3()[i], 1e-10)
		}
		l, ok := spd.Cholesky()
		if !ok {
			t.Fatal("Cholesky failed on SPD matrix")
		}
		llt := l.Mul(l.T())
		for i := range 3 {
			vecNear(t, "L Lᵀ row", Vec3(llt[i]), Vec3(spd[i]), 1e-12)
		}
	}
	if _, ok := (Mat3{{1, 2, 3}, {2, 4, 6}, {0, 0, 1}}).Inverse(); ok {
		t.Error("singular matrix inverted")
	}
	if _, ok := Diag3(Vec3{1, -1, 1}).Cholesky(); ok {
		t.Error("indefinite matrix factored")
	}
}

func randInertia(r *rand.Rand) SpatialInertia {
	d := Vec3{1 + r.Float64(), 1 + r.Float64(), 1 + r.Float64()}
	R := randQuat(r).RotMat()
	return SpatialInertia{Mass: 0.5 + r.Float64(), Com: randVec(r).Scale(0.3), Icom: RotateInertia(R, Diag3(d))}
}

func mul6(a, b [6][6]float64) [6][6]float64 {
	var c [6][6]float64
	for i := range 6 {
		for j := range 6 {
			for k := range 6 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

// TestSpatialInertiaInverseAndFactor checks notes §0.1: the closed-form
// inverse and the factorization M = G Gᵀ.
func TestSpatialInertiaInverseAndFactor(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 100 {
		s := randInertia(r)
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		M := s.Matrix()
		Mi, ok := s.InverseMatrix()
		if !ok {
			t.Fatal("inverse failed")
		}
		G, ok := s.Factor()
		if !ok {
			t.Fatal("factor failed")
		}
		var Gt [6][6]float64
		for i := range 6 {
			for j := range 6 {
				Gt[i][j] = G[j][i]
			}
		}
		id, ggt := mul6(M, Mi), mul6(G, Gt)
		for i := range 6 {
			for j := range 6 {
				want := 0.0
				if i == j {
					want = 1
				}
				if !near(id[i][j], want, 1e-12) {
					t.Fatalf("M M⁻¹[%d][%d] = %v", i, j, id[i][j])
				}
				if !near(ggt[i][j], M[i][j], 1e-12) || !near(M[i][j], M[j][i], 1e-15) {
					t.Fatalf("G Gᵀ[%d][%d] = %v, M = %v", i, j, ggt[i][j], M[i][j])
				}
			}
		}
	}
}

// TestSpatialInertiaMomentum checks M against the momenta of the body's
// particles: a body made of point masses, moving with twist (ω, v_o).
func TestSpatialInertiaMomentum(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	pts := make([]Vec3, 8)
	ms := make([]float64, 8)
	var s SpatialInertia
	for i := range pts {
		pts[i], ms[i] = randVec(r), 0.1+r.Float64()
		s.Mass += ms[i]
		s.Com = s.Com.Add(pts[i].Scale(ms[i]))
	}
	s.Com = s.Com.Scale(1 / s.Mass)
	for i, p := range pts {
		d := p.Sub(s.Com)
		s.Icom = s.Icom.Add(Identity3().Scale(d.Dot(d)).Sub(Outer(d, d)).Scale(ms[i]))
	}
	w, v := randVec(r), randVec(r)
	var h, l Vec3 // angular momentum about the origin, linear momentum
	for i, p := range pts {
		pv := v.Add(w.Cross(p)).Scale(ms[i])
		l = l.Add(pv)
		h = h.Add(p.Cross(pv))
	}
	M := s.Matrix()
	x := [6]float64{w[0], w[1], w[2], v[0], v[1], v[2]}
	var y [6]float64
	for i := range 6 {
		for j := range 6 {
			y[i] += M[i][j] * x[j]
		}
	}
	vecNear(t, "angular momentum", Vec3{y[0], y[1], y[2]}, h, 1e-12)
	vecNear(t, "linear momentum", Vec3{y[3], y[4], y[5]}, l, 1e-12)
}

func TestSpatialInertiaValidate(t *testing.T) {
	good := SpatialInertia{Mass: 1, Icom: Diag3(Vec3{1, 1, 1})}
	bad := map[string]SpatialInertia{
		"negative mass": {Mass: -1, Icom: good.Icom},
		"NaN mass":      {Mass: math.NaN(), Icom: good.Icom},
		"not SPD":       {Mass: 1, Icom: Diag3(Vec3{1, 1, -1})},
		"triangle":      {Mass: 1, Icom: Diag3(Vec3{1, 1, 3})},
		"asymmetric":    {Mass: 1, Icom: Mat3{{1, 0.5, 0}, {0, 1, 0}, {0, 0, 1}}},
		"NaN com":       {Mass: 1, Com: Vec3{math.NaN(), 0, 0}, Icom: good.Icom},
	}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, s := range bad {
		if s.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestPoseComposeInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for range 100 {
		x := Pose{R: randQuat(r), P: randVec(r)}
		y := Pose{R: randQuat(r), P: randVec(r)}
		p := randVec(r)
		vecNear(t, "compose", x.Compose(y).Apply(p), x.Apply(y.Apply(p)), 1e-13)
		vecNear(t, "inverse", x.Inverse().Apply(x.Apply(p)), p, 1e-13)
		vecNear(t, "ApplyInv", x.ApplyInv(x.Apply(p)), p, 1e-13)
	}
}

// TestQuatScalarFormsMatchVectorForms: Quat.Mul and Quat.Rotate, written
// on the scalar components, give the bits of their vector-operation forms
// (the forms they replaced: the same products and sums in the same order)
// on random quaternions and vectors, unnormalized and with zero components.
func TestQuatScalarFormsMatchVectorForms(t *testing.T) {
	mul := func(q, p Quat) Quat {
		qv, pv := q.Vec(), p.Vec()
		v := pv.Scale(q.W).Add(qv.Scale(p.W)).Add(qv.Cross(pv))
		return Quat{q.W*p.W - qv.Dot(pv), v[0], v[1], v[2]}
	}
	rotate := func(q Quat, v Vec3) Vec3 {
		u := q.Vec()
		tv := u.Cross(v).Scale(2)
		return v.Add(tv.Scale(q.W)).Add(u.Cross(tv))
	}
	r := rand.New(rand.NewPCG(23, 12))
	x := func() float64 {
		switch r.IntN(8) {
		case 0:
			return 0
		case 1:
			return 1
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for range 100000 {
		q, p := Quat{x(), x(), x(), x()}, Quat{x(), x(), x(), x()}
		v := Vec3{x(), x(), x()}
		a, b := q.Mul(p), mul(q, p)
		if !same(a.W, b.W) || !same(a.X, b.X) || !same(a.Y, b.Y) || !same(a.Z, b.Z) {
			t.Fatalf("%v.Mul(%v) = %v, vector form %v", q, p, a, b)
		}
		c, d := q.Rotate(v), rotate(q, v)
		for i := range 3 {
			if !same(c[i], d[i]) {
				t.Fatalf("%v.Rotate(%v) = %v, vector form %v", q, v, c, d)
			}
		}
	}
}

// TestPoseScalarFormsMatchVectorForms: Pose.Apply and Pose.ApplyInv,
// written on scalar locals, give the bits of their vector-operation forms
// (R p + P with Rotate and Add; Rᵀ (p − P) with Conj, Sub and Rotate) on
// random poses (unnormalized rotations, zero components) and points.
func TestPoseScalarFormsMatchVectorForms(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 14))
	x := func() float64 {
		switch r.IntN(8) {
		case 0:
			return 0
		case 1:
			return 1
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
	}
	same := func(a, b Vec3) bool {
		for i := range 3 {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return false
			}
		}
		return true
	}
	for range 100000 {
		ps := Pose{R: Quat{x(), x(), x(), x()}, P: Vec3{x(), x(), x()}}
		if r.IntN(2) == 0 {
			ps.R = ps.R.Normalize()
		}
		p := Vec3{x(), x(), x()}
		if a, b := ps.Apply(p), ps.R.Rotate(p).Add(ps.P); !same(a, b) {
			t.Fatalf("%v.Apply(%v) = %v, vector form %v", ps, p, a, b)
		}
		if a, b := ps.ApplyInv(p), ps.R.Conj().Rotate(p.Sub(ps.P)); !same(a, b) {
			t.Fatalf("%v.ApplyInv(%v) = %v, vector form %v", ps, p, a, b)
		}
	}
}
