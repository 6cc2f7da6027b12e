package lcp

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/internal/fixtures"
	"gonum.org/v1/gonum/mat"
)

// particle returns a point mass m on the plane z = 0 with one contact
// (rows n = z, t1 = x, t2 = y), pushed for one step h by (fx, fy).
func particle(m, mu, fx, fy, h float64) *Contact {
	a := mat.NewSymDense(3, []float64{m, 0, 0, 0, m, 0, 0, 0, m})
	j := mat.NewDense(3, 3, []float64{0, 0, 1, 1, 0, 0, 0, 1, 0})
	return &Contact{A: a, J: j, VStar: []float64{fx * h / m, fy * h / m, -9.81 * h}, Mu: []float64{mu}}
}

// TestPyramidParticle checks the pyramid friction LCP on a particle against
// closed forms: no motion below the friction limit; sliding along a vertex
// direction d_j, where the pyramid reaches the full Coulomb limit μ m g,
// v = v* − μ g h d_j; sliding along a facet's normal, at angle π/k, where
// the limit is μ m g cos(π/k); and u_n = 0 (no lift: the LCP is the
// Coulomb model, not its convex relaxation).
func TestPyramidParticle(t *testing.T) {
	const m, mu, h, g = 2.0, 0.5, 0.01, 9.81
	for _, k := range []int{4, 6, 8, 16} {
		f := FrictionLCP{Facets: k}
		limit := mu * m * g
		for _, c := range []struct {
			name  string
			angle float64 // push direction
			force float64
			cap   float64 // friction limit along it
		}{
			{"stick", 0.3, 0.5 * limit, 0},
			{"vertex", 2 * math.Pi / float64(k), 2 * limit, mu * g * h},
			{"facet", math.Pi / float64(k), 2 * limit, mu * g * h * math.Cos(math.Pi/float64(k))},
		} {
			cx, sy := math.Cos(c.angle), math.Sin(c.angle)
			p := particle(m, mu, c.force*cx, c.force*sy, h)
			sol, err := f.Solve(p)
			if err != nil || sol.LCP.Status != Solved {
				t.Fatalf("k %d %s: %v %v", k, c.name, err, sol.LCP.Status)
			}
			want := []float64{0, 0, 0}
			if c.cap > 0 {
				speed := c.force*h/m - c.cap
				want = []float64{speed * cx, speed * sy, 0}
			}
			if maxDiff(sol.V, want) > 1e-12 {
				t.Errorf("k %d %s: v = %v, want %v", k, c.name, sol.V, want)
			}
			if math.Abs(sol.Gamma[0]-m*g*h) > 1e-12 {
				t.Errorf("k %d %s: γ_n = %v, want m g h = %v", k, c.name, sol.Gamma[0], m*g*h)
			}
		}
	}
}

// fromFixture converts a fixtures scene.
func fromFixture(c fixtures.Contact) *Contact {
	return &Contact{A: c.A, J: c.J, VStar: c.VStar, Mu: c.Mu}
}

// TestPyramidBox solves the box on four contacts (a statically
// indeterminate problem: Lemke picks one of the impulse distributions):
// below μ m g it sticks (v = 0, impulses balance gravity and the push);
// above, pushed along a vertex direction of the square pyramid, it slides
// without tipping (μ c < a) at v_x = v*_x − μ g h, with no lift.
func TestPyramidBox(t *testing.T) {
	const a, b, c, m, mu, h = 0.2, 0.1, 0.05, 3.0, 0.4, 0.01
	f := FrictionLCP{Facets: 4}
	for _, push := range []float64{5, 11, 20, 60} {
		sol, err := f.Solve(fromFixture(fixtures.BoxOnPlane(a, b, c, m, mu, push, h)))
		if err != nil || sol.LCP.Status != Solved {
			t.Fatalf("push %v: %v %v", push, err, sol.LCP.Status)
		}
		var fx, fz float64
		for i := range 4 {
			fz += sol.Gamma[3*i]
			fx += sol.Gamma[3*i+1]
		}
		want := make([]float64, 6)
		if push > mu*m*9.81 {
			want[3] = push*h/m - mu*9.81*h
		}
		if maxDiff(sol.V, want) > 1e-12 || math.Abs(fz-m*9.81*h) > 1e-12 {
			t.Errorf("push %v: v = %v, want %v; Σγ_n = %v", push, sol.V, want, fz)
		}
		t.Logf("push %v N: v_x = %.6f, Σγ_t1 = %.5f, Σγ_n = %.5f, %d pivots", push, sol.V[3], fx, fz, sol.LCP.Pivots)
	}
}
