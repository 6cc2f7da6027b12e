package fclib

import "gonum.org/v1/gonum/floats"

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
// The cone parts are computed by coulomb.Residuals (package opt/coulomb),
// which the Delassus-form solvers share. The methods Relaxed, Regularized
// and Coulomb return the larger of the equation part and the respective
// cone part.
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

// norm returns the Euclidean norm of x.
func norm(x []float64) float64 { return floats.Norm(x, 2) }
