package fmath

import "math"

// Hypot returns math.Hypot(p, q), √(p² + q²) without needless overflow or
// underflow: the same bits for finite arguments, +Inf when either is
// infinite, 0 when both are zero and a NaN when either is a NaN and neither
// is infinite (a NaN of either argument's payload, where math.Hypot's is
// math.NaN()). With the larger magnitude a and the smaller b it computes
// a √(1 + (b/a)²), the formula of both the standard library's portable
// hypot and its amd64 assembly (math/hypot.go, math/hypot_amd64.s: the same
// four operations in the same order). Unlike math.Hypot on amd64, which
// calls the assembly, it inlines: the Lagged and disk friction evaluations
// (solver/disk.go) call it for every contact at every point of SAP's line
// search.
func Hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	if q > p || p != p { // p becomes the larger, or the NaN only when both are
		p, q = q, p
	}
	if p > math.MaxFloat64 { // +Inf, whatever q is
		return p
	}
	if p == 0 { // q is +0 or a NaN
		return q
	}
	q /= p
	return p * math.Sqrt(1+float64(q*q)) // the conversion forbids a fused multiply–add
}
