package fclib

import "math"

// Regime thresholds of classify.
const (
	separateTol = 1e-12 // γn ≤ separateTol·max γn: separating
	slideTol    = 1e-9  // ‖γt‖ ≥ (1 − slideTol) μ γn: on the cone boundary, sliding
)

// classify counts contacts by the regime of SAP's impulse γ (SAP order,
// (t1, t2, n)): separating when γn vanishes (SAP's region III, γ = 0),
// sliding when γ lies on the boundary of the friction cone (region II,
// γt = μγn t̂), sticking when it lies inside (region I).
func classify(gamma, mu []float64) (stick, slide, separate int) {
	gmax := 0.0
	for i := range mu {
		gmax = max(gmax, gamma[3*i+2])
	}
	for i := range mu {
		gt, gn := math.Hypot(gamma[3*i], gamma[3*i+1]), gamma[3*i+2]
		switch {
		case gn <= separateTol*gmax:
			separate++
		case gt >= (1-slideTol)*mu[i]*gn:
			slide++
		default:
			stick++
		}
	}
	return stick, slide, separate
}
