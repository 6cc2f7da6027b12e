package fclib

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// Residuals measure how well (v, r) solves an FCLIB problem, normalised as
// in Siconos. The equation part (global problems only) is
//
//	‖f + H r − M v‖ / max(‖f‖, ‖M v‖, ‖H r‖),
//
// and each cone part is
//
//	‖r − P_K(r − ũ)‖ / max(‖u‖, ‖r‖),
//
// with u = Hᵀ v + w (global) or W r + q (local), P_K the Euclidean
// projection onto K = {‖r_T‖ ≤ μ r_N} contact by contact, and ũ one of:
//
//   - Relaxed: ũ = u, the convex relaxation solved by SAP as R → 0
//     (Anitescu's model);
//   - Regularized: ũ = u + Rγ, the compliant velocity, the exact optimality
//     condition of the problem SAP solves;
//   - Coulomb: ũ = u + [μ‖u_T‖, 0, 0], De Saxcé's bipotential form of
//     Coulomb friction, the FCLIB problem itself.
//
// The methods Relaxed, Regularized and Coulomb return the larger of the
// equation part and the respective cone part.
type Residuals struct {
	Equation        float64
	ConeRelaxed     float64
	ConeRegularized float64
	ConeCoulomb     float64
}

// Relaxed returns max(Equation, ConeRelaxed).
func (r Residuals) Relaxed() float64 { return max(r.Equation, r.ConeRelaxed) }

// Regularized returns max(Equation, ConeRegularized).
func (r Residuals) Regularized() float64 { return max(r.Equation, r.ConeRegularized) }

// Coulomb returns max(Equation, ConeCoulomb).
func (r Residuals) Coulomb() float64 { return max(r.Equation, r.ConeCoulomb) }

// coneResiduals returns the three cone parts from r, u, the compliance
// velocity Rγ (all FCLIB order) and μ.
func coneResiduals(r, u, rg, mu []float64) (relaxed, regularized, coulomb float64) {
	den := max(norm(u), norm(r))
	ut := make([]float64, len(u))
	var s1, s2, s3 float64
	for i := range mu {
		k := 3 * i
		ri, ui := r[k:k+3], u[k:k+3]
		s1 += coneTerm(ri, ui, mu[i])
		for j := range 3 {
			ut[k+j] = ui[j] + rg[k+j]
		}
		s2 += coneTerm(ri, ut[k:k+3], mu[i])
		copy(ut[k:k+3], ui)
		ut[k] += mu[i] * math.Hypot(ui[1], ui[2])
		s3 += coneTerm(ri, ut[k:k+3], mu[i])
	}
	return ratio(math.Sqrt(s1), den), ratio(math.Sqrt(s2), den), ratio(math.Sqrt(s3), den)
}

// coneTerm returns ‖r − P_K(r − ũ)‖² for one contact.
func coneTerm(r, ut []float64, mu float64) float64 {
	x := [3]float64{r[0] - ut[0], r[1] - ut[1], r[2] - ut[2]}
	projectCone(&x, mu)
	d0, d1, d2 := r[0]-x[0], r[1]-x[1], r[2]-x[2]
	return d0*d0 + d1*d1 + d2*d2
}

// projectCone projects x = (n, t1, t2) onto {‖x_T‖ ≤ μ x_N} in place.
func projectCone(x *[3]float64, mu float64) {
	n, t := x[0], math.Hypot(x[1], x[2])
	switch {
	case t <= mu*n:
	case mu*t <= -n:
		*x = [3]float64{}
	default:
		pn := (n + mu*t) / (1 + mu*mu)
		s := mu * pn / t
		*x = [3]float64{pn, s * x[1], s * x[2]}
	}
}

// ratio returns num/den, 0/0 = 0.
func ratio(num, den float64) float64 {
	if num == 0 {
		return 0
	}
	return num / den
}

func norm(x []float64) float64 { return floats.Norm(x, 2) }
