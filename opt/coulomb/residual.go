package coulomb

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// Residuals returns the cone parts of the Siconos-normalised residuals of
// contact impulses r and velocities u (both (n, t1, t2) per contact, length
// 3·len(mu)):
//
//	‖r − P_K(r − ũ)‖ / max(‖u‖, ‖r‖)
//
// with ũ = u (relaxed: the convex relaxation, Anitescu's model), ũ = u +
// rg (regularized: rg = Rγ is the compliance velocity; nil reads as zero)
// and ũ = DeSaxce(u) (coulomb: Coulomb's law). 0/0 counts as 0.
func Residuals(r, u, rg, mu []float64) (relaxed, regularized, coulomb float64) {
	den := max(floats.Norm(u, 2), floats.Norm(r, 2))
	var s1, s2, s3 float64
	for i := range mu {
		k := 3 * i
		ri, ui := [3]float64(r[k:k+3]), [3]float64(u[k:k+3])
		s1 += NaturalMap(ri, ui, mu[i])
		ut := ui
		if rg != nil {
			for j := range 3 {
				ut[j] = ui[j] + rg[k+j]
			}
		}
		s2 += NaturalMap(ri, ut, mu[i])
		s3 += NaturalMap(ri, DeSaxce(ui, mu[i]), mu[i])
	}
	return Ratio(math.Sqrt(s1), den), Ratio(math.Sqrt(s2), den), Ratio(math.Sqrt(s3), den)
}

// Ratio returns num/den, with 0/0 = 0.
func Ratio(num, den float64) float64 {
	if num == 0 {
		return 0
	}
	return num / den
}
