package validate

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/internal/fixtures"
	"github.com/stiction-sim/stiction/opt/lcp"
	"github.com/stiction-sim/stiction/solver/pgs"
	"github.com/stiction-sim/stiction/spatial"
)

// The mechanics notes' identities (inertia, quaternions, spring Jacobians)
// and PGS converging to the pivoting (LCP/KKT) solution.
func init() {
	Register(Claim{ID: "notes/spatial-inertia", Group: "Notes", Quick: true, Run: spatialInertia})
	Register(Claim{ID: "notes/quaternion", Group: "Notes", Quick: true, Run: quaternions})
	Register(Claim{ID: "notes/spring-jacobians", Group: "Notes", Quick: true, Run: springJacobians})
	Register(Claim{ID: "notes/pgs-lcp", Group: "Notes", Quick: true, Run: pgsMatchesLCP})
}

const identitySamples = 1000 // random samples per identity

func notesVec(r *rand.Rand) spatial.Vec3 {
	return spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
}

func notesQuat(r *rand.Rand) spatial.Quat {
	return spatial.QuatFromAxisAngle(notesVec(r), math.Pi*r.Float64())
}

// spatialInertia: notes §0.1, the closed-form inverse, the factorization
// M = G Gᵀ and M as the map from twist to momentum of a body of particles.
func spatialInertia(ctx *Context) ([]Row, error) {
	r := rand.New(rand.NewPCG(11, 12))
	inv, fac, mom := 0.0, 0.0, 0.0
	for range identitySamples {
		d := spatial.Vec3{1 + r.Float64(), 1 + r.Float64(), 1 + r.Float64()}
		s := spatial.SpatialInertia{Mass: 0.5 + r.Float64(), Com: notesVec(r).Scale(0.3), Icom: spatial.RotateInertia(notesQuat(r).RotMat(), spatial.Diag3(d))}
		M := s.Matrix()
		Mi, ok1 := s.InverseMatrix()
		G, ok2 := s.Factor()
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("inverse or factor failed for %+v", s)
		}
		for i := range 6 {
			for j := range 6 {
				var id, ggt float64
				for k := range 6 {
					id += M[i][k] * Mi[k][j]
					ggt += G[i][k] * G[j][k]
				}
				if i == j {
					id--
				}
				inv, fac = math.Max(inv, math.Abs(id)), math.Max(fac, math.Abs(ggt-M[i][j]))
			}
		}
		mom = math.Max(mom, particleMomentum(r))
	}
	return []Row{
		{Claim: "spatial inertia: closed-form inverse, M M⁻¹ = I", Source: "notes §0.1", Expected: "0", Measured: fmt.Sprintf("max |M M⁻¹ − I| = %.2g over %d random bodies", inv, identitySamples), Tolerance: "1e-12", Pass: inv <= 1e-12},
		{Claim: "spatial inertia: factorization M = G Gᵀ", Source: "notes §0.1", Expected: "0", Measured: fmt.Sprintf("max |G Gᵀ − M| = %.2g", fac), Tolerance: "1e-12", Pass: fac <= 1e-12},
		{Claim: "spatial inertia: M (ω, v) = momentum of the body's particles", Source: "notes §0.1", Expected: "0", Measured: fmt.Sprintf("max error %.2g", mom), Tolerance: "1e-12", Pass: mom <= 1e-12},
	}, nil
}

// particleMomentum builds a body of 8 random particles and returns the
// largest difference between M (ω, v_o) and the particles' angular
// momentum about the origin and linear momentum.
func particleMomentum(r *rand.Rand) float64 {
	pts, ms := make([]spatial.Vec3, 8), make([]float64, 8)
	var s spatial.SpatialInertia
	for i := range pts {
		pts[i], ms[i] = notesVec(r), 0.1+r.Float64()
		s.Mass += ms[i]
		s.Com = s.Com.Add(pts[i].Scale(ms[i]))
	}
	s.Com = s.Com.Scale(1 / s.Mass)
	for i, p := range pts {
		d := p.Sub(s.Com)
		s.Icom = s.Icom.Add(spatial.Identity3().Scale(d.Dot(d)).Sub(spatial.Outer(d, d)).Scale(ms[i]))
	}
	w, v := notesVec(r), notesVec(r)
	var h, l spatial.Vec3
	for i, p := range pts {
		pv := v.Add(w.Cross(p)).Scale(ms[i])
		l, h = l.Add(pv), h.Add(p.Cross(pv))
	}
	M := s.Matrix()
	x := [6]float64{w[0], w[1], w[2], v[0], v[1], v[2]}
	want := [6]float64{h[0], h[1], h[2], l[0], l[1], l[2]}
	worst := 0.0
	for i := range 6 {
		y := 0.0
		for j := range 6 {
			y += M[i][j] * x[j]
		}
		worst = math.Max(worst, math.Abs(y-want[i]))
	}
	return worst
}

// quaternions: notes §0.2, eq. 0.1: q̇ = ½ (0, ω) q for the world ω against
// central differences of the exact flow, its body-frame form, and the
// product composing rotations.
func quaternions(ctx *Context) ([]Row, error) {
	r := rand.New(rand.NewPCG(5, 6))
	const h = 1e-6
	fd, body, comp := 0.0, 0.0, 0.0
	flow := func(q spatial.Quat, w spatial.Vec3, t float64) spatial.Quat {
		return spatial.QuatFromAxisAngle(w, w.Norm()*t).Mul(q)
	}
	for range identitySamples {
		q, w := notesQuat(r), notesVec(r)
		d := flow(q, w, h).Add(flow(q, w, -h).Scale(-1)).Scale(1 / (2 * h))
		rate := q.RateWorld(w)
		fd = math.Max(fd, rate.Add(d.Scale(-1)).Norm())
		body = math.Max(body, q.RateBody(q.Conj().Rotate(w)).Add(rate.Scale(-1)).Norm())
		p := notesQuat(r)
		comp = math.Max(comp, q.Mul(p).RotMat().Sub(q.RotMat().Mul(p.RotMat())).FrobeniusNorm())
	}
	return []Row{
		{Claim: "quaternion rate q̇ = ½ ω ∘ q (world ω) = derivative of the exact flow", Source: "notes §0.2, eq. 0.1", Expected: "0 (central differences, h = 1e-6)",
			Measured: fmt.Sprintf("max |q̇ − FD| = %.2g over %d identitySamples", fd, identitySamples), Tolerance: "1e-8", Pass: fd <= 1e-8},
		{Claim: "quaternion rate in the body frame equals the world form", Source: "notes §0.2", Expected: "0", Measured: fmt.Sprintf("max difference %.2g", body), Tolerance: "1e-14", Pass: body <= 1e-14},
		{Claim: "quaternion product composes rotations, R(q p) = R(q) R(p)", Source: "notes §0.2", Expected: "0", Measured: fmt.Sprintf("max ‖·‖_F %.2g", comp), Tolerance: "1e-14", Pass: comp <= 1e-14},
	}, nil
}

// springJacobians: notes §0.12–0.14, the axial spring–damper's ∂f/∂x and
// ∂f/∂ẋ (forces.AxialJacobians) against central differences of
// f = u (k (l − l0) + d (ẋ2 − ẋ1)·u).
func springJacobians(ctx *Context) ([]Row, error) {
	r := rand.New(rand.NewPCG(9, 9))
	const h = 1e-6
	worst := 0.0
	f := func(x1, x2, v1, v2 spatial.Vec3, k, d, rest float64) spatial.Vec3 {
		u, l := x2.Sub(x1).Normalize()
		return u.Scale(k*(l-rest) + d*v2.Sub(v1).Dot(u))
	}
	for range identitySamples {
		x1, x2, v1, v2 := notesVec(r), notesVec(r), notesVec(r), notesVec(r)
		k, d, rest := 10*r.Float64(), r.Float64(), r.Float64()
		dfdx, dfdv := forces.AxialJacobians(x1, x2, v1, v2, k, d, rest)
		for j := range 3 {
			var e spatial.Vec3
			e[j] = h
			gx := f(x1.Add(e), x2, v1, v2, k, d, rest).Sub(f(x1.Sub(e), x2, v1, v2, k, d, rest)).Scale(1 / (2 * h))
			gv := f(x1, x2, v1.Add(e), v2, k, d, rest).Sub(f(x1, x2, v1.Sub(e), v2, k, d, rest)).Scale(1 / (2 * h))
			for i := range 3 {
				worst = math.Max(worst, math.Max(math.Abs(gx[i]-dfdx[i][j]), math.Abs(gv[i]-dfdv[i][j])))
			}
		}
	}
	return []Row{{Claim: "spring–damper Jacobians ∂f/∂x, ∂f/∂ẋ = finite differences", Source: "notes §0.12–0.14", Expected: "0 (central differences, h = 1e-6)",
		Measured: fmt.Sprintf("max difference %.2g over %d random springs", worst, identitySamples), Tolerance: "1e-6", Pass: worst <= 1e-6}}, nil
}

// pgsMatchesLCP: notes §0.8 and §0.15–0.16: PGS converges to the pivoting
// solution: Lemke on frictionless box stacks (normal LCP) and the pyramid
// friction LCP on a pushed box (along a vertex direction of the pyramid,
// where the two friction sets agree).
func pgsMatchesLCP(ctx *Context) ([]Row, error) {
	var rows []Row
	for _, nb := range []int{1, 3} {
		c := fixtures.BoxStack(nb, 0.2, 0.1, 0.05, 1, 0, 0, 0.01)
		w, b, ainvJt := c.Delassus()
		v, sweeps, err := solvePGS(&pgs.Problem{W: w, B: b, Mu: c.Mu}, ainvJt, c.VStar, 200000)
		if err != nil {
			return nil, fmt.Errorf("%d boxes: %w", nb, err)
		}
		nc := len(c.Mu)
		m := mat.NewDense(nc, nc, nil)
		q := make([]float64, nc)
		for i := range nc {
			q[i] = b[3*i]
			for j := range nc {
				m.Set(i, j, w.At(3*i, 3*j))
			}
		}
		var l lcp.Lemke
		lr, err := l.Solve(m, q)
		if err != nil || lr.Status != lcp.Solved {
			return nil, fmt.Errorf("%d boxes: Lemke: %v %v", nb, err, lr.Status)
		}
		gamma := make([]float64, 3*nc)
		for i := range nc {
			gamma[3*i] = lr.Z[i]
		}
		d := maxAbsDiff(v, fixtures.Velocities(ainvJt, c.VStar, gamma))
		rows = append(rows, Row{Claim: fmt.Sprintf("PGS = Lemke, frictionless stack of %d box(es)", nb), Source: "notes §0.8, §0.15",
			Expected: "same velocities", Measured: fmt.Sprintf("|Δv|∞ = %.2g (PGS %d sweeps, Lemke %d pivots)", d, sweeps, lr.Pivots), Tolerance: "1e-9", Pass: d <= 1e-9})
	}
	for _, push := range []float64{5, 20} {
		c := fixtures.BoxOnPlane(0.2, 0.1, 0.05, 3, 0.4, push, 0.01)
		w, b, ainvJt := c.Delassus()
		v, sweeps, err := solvePGS(&pgs.Problem{W: w, B: b, Mu: c.Mu}, ainvJt, c.VStar, 100000)
		if err != nil {
			return nil, fmt.Errorf("push %g: %w", push, err)
		}
		f := lcp.FrictionLCP{Facets: 4}
		sol, err := f.Solve(&lcp.Contact{A: c.A, J: c.J, VStar: c.VStar, Mu: c.Mu})
		if err != nil || sol.LCP.Status != lcp.Solved {
			return nil, fmt.Errorf("push %g: pyramid LCP: %v", push, err)
		}
		d := maxAbsDiff(v, sol.V)
		state := "sticks"
		if push > 0.4*3*gAcc {
			state = "slides"
		}
		rows = append(rows, Row{Claim: fmt.Sprintf("PGS (exact cone) = pyramid LCP, 3 kg box pushed by %g N (%s)", push, state), Source: "notes §0.7–0.8, §0.16",
			Expected: "same velocities", Measured: fmt.Sprintf("|Δv|∞ = %.2g (PGS %d sweeps, pivoting %d pivots)", d, sweeps, sol.LCP.Pivots), Tolerance: "1e-9", Pass: d <= 1e-9})
	}
	return rows, nil
}

// solvePGS solves p to 1e-12 and returns the velocities and the sweeps.
func solvePGS(p *pgs.Problem, ainvJt *mat.Dense, vstar []float64, maxIter int) ([]float64, int, error) {
	s := pgs.NewSolver()
	s.Settings.Tol, s.Settings.MaxIter = 1e-12, maxIter
	res, err := s.Solve(p, nil)
	if err != nil {
		return nil, 0, err
	}
	if res.Stats.Status != pgs.Converged {
		return nil, 0, fmt.Errorf("PGS %v after %d sweeps (residual %.1e)", res.Stats.Status, res.Iterations, res.Residual)
	}
	return fixtures.Velocities(ainvJt, vstar, res.Gamma), res.Iterations, nil
}

// maxAbsDiff is the max-norm distance of a and b.
func maxAbsDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}
