package socp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Cones describes K = {0}^Zero × R₊^NonNeg × Q^SOC[0] × Q^SOC[1] × …, the
// cone of the slack s (and, Zero aside, of the dual z: every cone here is
// self-dual; the dual of {0} is R). Its rows are laid out in that order:
// the Zero equality rows first, then the NonNeg orthant rows, then each
// second-order cone Q^k = {(t, u) ∈ R × R^(k−1): ‖u‖ ≤ t} in turn.
type Cones struct {
	Zero   int   // equality rows (Ax = b)
	NonNeg int   // orthant rows (Ax ≤ b)
	SOC    []int // dimension of each second-order cone, ≥ 1
}

// Dim returns the number of rows of K.
func (c Cones) Dim() int {
	m := c.Zero + c.NonNeg
	for _, k := range c.SOC {
		m += k
	}
	return m
}

// Degree returns ν, the degree of K (1 per orthant row and per
// second-order cone; the zero cone has none): the barrier parameter
// μ = (sᵀz + τκ)/(ν + 1) counts it.
func (c Cones) Degree() int { return c.NonNeg + len(c.SOC) }

// check validates the dimensions.
func (c Cones) check() error {
	if c.Zero < 0 || c.NonNeg < 0 {
		return fmt.Errorf("cones: Zero = %d, NonNeg = %d (want ≥ 0)", c.Zero, c.NonNeg)
	}
	for i, k := range c.SOC {
		if k < 1 {
			return fmt.Errorf("cones: SOC[%d] has dimension %d (want ≥ 1)", i, k)
		}
	}
	return nil
}

// jordanProd sets dst = x ∘ y on the non-zero cones: x_i y_i on the orthant,
// (xᵀy, x₀y₁ + y₀x₁) on a second-order cone. dst must not overlap x or y.
func (c Cones) jordanProd(dst, x, y []float64) {
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		dst[i] = x[i] * y[i]
	}
	r := c.Zero + c.NonNeg
	for _, k := range c.SOC {
		xs, ys, ds := x[r:r+k], y[r:r+k], dst[r:r+k]
		ds[0] = floats.Dot(xs, ys)
		for i := 1; i < k; i++ {
			ds[i] = xs[0]*ys[i] + ys[0]*xs[i]
		}
		r += k
	}
}

// jordanDiv sets dst = λ \ d, the solution u of λ ∘ u = d, on the non-zero
// cones; λ must lie in the interior of K. dst must not overlap λ or d.
func (c Cones) jordanDiv(dst, lam, d []float64) {
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		dst[i] = d[i] / lam[i]
	}
	r := c.Zero + c.NonNeg
	for _, k := range c.SOC {
		l, dd, u := lam[r:r+k], d[r:r+k], dst[r:r+k]
		l1d1 := floats.Dot(l[1:], dd[1:])
		det := l[0]*l[0] - floats.Dot(l[1:], l[1:])
		u[0] = (l[0]*dd[0] - l1d1) / det
		for i := 1; i < k; i++ {
			u[i] = (dd[i] - u[0]*l[i]) / l[0]
		}
		r += k
	}
}

// addIdentity adds a·e (e the identity of K: 1 on the orthant, (1, 0) on a
// second-order cone) to the non-zero cone rows of x.
func (c Cones) addIdentity(x []float64, a float64) {
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		x[i] += a
	}
	r := c.Zero + c.NonNeg
	for _, k := range c.SOC {
		x[r] += a
		r += k
	}
}

// minEig returns the smallest "eigenvalue" of x in the Jordan algebra of K:
// min over the orthant rows of x_i and over the cones of x₀ − ‖x₁‖. x lies
// in the interior of K exactly when it is positive (+Inf for a zero cone
// alone).
func (c Cones) minEig(x []float64) float64 {
	m := math.Inf(1)
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		m = min(m, x[i])
	}
	r := c.Zero + c.NonNeg
	for _, k := range c.SOC {
		m = min(m, x[r]-floats.Norm(x[r+1:r+k], 2))
		r += k
	}
	return m
}

// maxStep returns the largest α ≤ αmax with x + α dx in K (x in its
// interior).
func (c Cones) maxStep(x, dx []float64, amax float64) float64 {
	a := amax
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		if dx[i] < 0 {
			a = min(a, -x[i]/dx[i])
		}
	}
	r := c.Zero + c.NonNeg
	for _, k := range c.SOC {
		a = min(a, socStep(x[r:r+k], dx[r:r+k]))
		r += k
	}
	return a
}

// socStep returns the largest α with x + α d in Q (+Inf if d ∈ Q): the
// smallest positive root of (x₀+αd₀)² − ‖x₁+αd₁‖² = 0 when the ray leaves
// the cone.
func socStep(x, d []float64) float64 {
	if len(x) == 1 {
		if d[0] < 0 {
			return -x[0] / d[0]
		}
		return math.Inf(1)
	}
	if d[0] >= floats.Norm(d[1:], 2) {
		return math.Inf(1)
	}
	a := d[0]*d[0] - floats.Dot(d[1:], d[1:])
	b := 2 * (x[0]*d[0] - floats.Dot(x[1:], d[1:]))
	cc := (x[0] - floats.Norm(x[1:], 2)) * (x[0] + floats.Norm(x[1:], 2))
	if cc <= 0 {
		return 0
	}
	disc := math.Max(b*b-4*a*cc, 0)
	// Roots by the stable formula: q = −(b + sign(b)√disc)/2, roots q/a, c/q.
	q := -0.5 * (b + math.Copysign(math.Sqrt(disc), b))
	best := math.Inf(1)
	for _, t := range [2]float64{q / a, cc / q} {
		if t > 0 && t < best {
			best = t
		}
	}
	// Guard the branch x₀ + α d₀ ≥ 0 (the root of the mirrored cone).
	if d[0] < 0 {
		best = min(best, -x[0]/d[0])
	}
	return best
}
