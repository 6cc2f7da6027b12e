package urdf

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/spatial"
)

// Inertia repair. URDF files exported from CAD or written by hand often
// carry rotational inertias that no rigid body has: a slightly negative
// principal moment (−3.5e-8 from round-off), principal moments that violate
// the triangle inequality (the largest moment is at most the sum of the
// two others), or no inertia at all for a link with mass. DART and
// Pinocchio load such files as written; the engine needs a physical
// inertia, so the importer repairs it and warns:
//
//   - the inertia is diagonalised, I = R diag(λ) Rᵀ, and the principal
//     moments λ are replaced by the Euclidean projection of λ onto the
//     cone of physical moments {λᵢ ≥ 0, λᵢ ≤ λⱼ + λₖ} (Dykstra's
//     algorithm); the principal axes R are kept. This is the smallest
//     change, in the Frobenius norm, that makes the inertia physical
//     among those that keep its axes.
//   - a principal moment below 1e-6 of the largest is raised to it (the
//     engine needs a positive-definite inertia);
//   - when the moments are all below 1e-12 of the sphere inertia below
//     (no inertia, or nothing physical near it) the link gets the inertia of a solid sphere of water (1000
//     kg/m³) of its mass, I = 2/5·m·r², r = (3m/(4π·1000))^(1/3).
//   - a link without mass on a moving joint gets MinMass (and, if its
//     inertia is zero, that of a solid sphere of that mass about the link
//     origin that holds its shapes, or of water when it has none); its own
//     non-zero inertia is kept, as DART keeps it.

// MinMass is the mass (kg) given to a massless link on a moving joint: the
// engine needs a positive mass on every moving body. It is small enough
// to change M(q) of any robot of example-robot-data by less than 1e-10
// relative.
const MinMass = 1e-9

// ShapedMinMass is the fraction of its nearest massive ancestor's mass
// given to a massless link on a moving joint that has collision shapes
// (at least MinMass).
const ShapedMinMass = 1e-2

// zeroInertia: principal moments all below this fraction of the sphere
// inertia of the link's mass count as no inertia (iCub's links carry
// 1e-20 kg·m², rounding noise of a zero inertia written in a rotated
// frame).
const zeroInertia = 1e-12

// minMomentRatio is the smallest principal moment kept, relative to the
// largest: a zero moment (a thin rod, or one projected onto zero) is
// raised to it, since the engine needs a positive-definite inertia.
const minMomentRatio = 1e-6

// WeldedMinMass is the mass (kg) given to a massless link with a non-zero
// inertia on a fixed joint below a moving link, so that its inertia counts
// as DART and Pinocchio count it; merged into its parent, it moves M(q) by
// about 1e-15 kg × (distance)².
const WeldedMinMass = 1e-15

// sphereInertia returns the inertia of a solid sphere of water of mass m.
func sphereInertia(m float64) spatial.Mat3 {
	return radiusInertia(m, math.Cbrt(3*m/(4*math.Pi*1000)))
}

// radiusInertia returns the inertia of a solid sphere of mass m and
// radius r, 2/5·m·r².
func radiusInertia(m, r float64) spatial.Mat3 {
	k := 0.4 * m * r * r
	return spatial.Mat3{{k, 0, 0}, {0, k, 0}, {0, 0, k}}
}

// repairInertia returns the nearest physical inertia to I (see above) and
// a description of the change, "" when I is physical as given (to the
// tolerance of model.CheckInertia).
func repairInertia(I spatial.Mat3, mass float64) (spatial.Mat3, string) {
	// Symmetrise (URDF gives the upper triangle only, so this is exact).
	lam, V := eigSym(I)
	scale := math.Max(math.Max(math.Abs(lam[0]), math.Abs(lam[1])), math.Abs(lam[2]))
	tol := 1e-9 * scale
	ok := true
	for i := range 3 {
		if lam[i] <= 0 || lam[i] > lam[(i+1)%3]+lam[(i+2)%3]+tol {
			ok = false
		}
	}
	if ok && scale > zeroInertia*sphereInertia(mass)[0][0] {
		return I, ""
	}
	p := projectMoments(lam)
	pmax := math.Max(math.Max(p[0], p[1]), p[2])
	if pmax <= zeroInertia*sphereInertia(mass)[0][0] {
		S := sphereInertia(mass)
		return S, fmt.Sprintf("principal moments %.6g, %.6g, %.6g replaced by a solid sphere of water of mass %g (%.6g on every axis)", lam[0], lam[1], lam[2], mass, S[0][0])
	}
	for i := range 3 { // strictly positive: the engine needs M(q) ≻ 0
		p[i] = math.Max(p[i], minMomentRatio*pmax)
	}
	var out spatial.Mat3
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				out[i][j] += V[i][k] * p[k] * V[j][k]
			}
		}
	}
	for i := range 3 { // exactly symmetric
		for j := i + 1; j < 3; j++ {
			out[j][i] = out[i][j]
		}
	}
	return out, fmt.Sprintf("principal moments %.6g, %.6g, %.6g projected onto the nearest physical ones %.6g, %.6g, %.6g (same principal axes)", lam[0], lam[1], lam[2], p[0], p[1], p[2])
}

// projectMoments returns the Euclidean projection of λ onto the polyhedral
// cone {λᵢ ≥ 0, λᵢ ≤ λⱼ + λₖ}, by Dykstra's alternating projections onto
// its six half-spaces.
func projectMoments(lam [3]float64) [3]float64 {
	// Half-spaces n·x ≤ 0.
	ns := [6][3]float64{{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}
	x := lam
	var corr [6][3]float64
	for range 2000 {
		prev := x
		for k, n := range ns {
			y := [3]float64{x[0] + corr[k][0], x[1] + corr[k][1], x[2] + corr[k][2]}
			d := n[0]*y[0] + n[1]*y[1] + n[2]*y[2]
			nn := n[0]*n[0] + n[1]*n[1] + n[2]*n[2]
			z := y
			if d > 0 {
				for i := range 3 {
					z[i] -= d / nn * n[i]
				}
			}
			for i := range 3 {
				corr[k][i] = y[i] - z[i]
			}
			x = z
		}
		if math.Abs(x[0]-prev[0])+math.Abs(x[1]-prev[1])+math.Abs(x[2]-prev[2]) <= 1e-16*(math.Abs(x[0])+math.Abs(x[1])+math.Abs(x[2])) {
			break
		}
	}
	// Round-off: land exactly inside.
	for i := range 3 {
		x[i] = math.Max(x[i], 0)
	}
	for i := range 3 {
		if s := x[(i+1)%3] + x[(i+2)%3]; x[i] > s {
			x[i] = s
		}
	}
	return x
}

// eigSym returns the eigenvalues, ascending, and eigenvectors (columns of
// V) of the symmetric part of A.
func eigSym(A spatial.Mat3) ([3]float64, [3][3]float64) { return model.EigSym3(A) }
