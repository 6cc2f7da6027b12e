package spatial

import (
	"fmt"
	"math"
)

// SpatialInertia is the inertia of a rigid body about its frame origin
// (mechanics notes §0.1): mass m, centre of mass c, and rotational inertia
// Icom about the centre of mass, both c and Icom expressed in the body frame.
type SpatialInertia struct {
	Mass float64
	Com  Vec3
	Icom Mat3
}

// Validate reports a descriptive error unless the mass is positive and
// finite, the centre of mass is finite, and Icom is symmetric positive
// definite and satisfies the triangle inequalities of principal moments.
func (s SpatialInertia) Validate() error {
	if !(s.Mass > 0) || math.IsInf(s.Mass, 0) {
		return fmt.Errorf("mass %v must be positive and finite", s.Mass)
	}
	if !s.Com.IsFinite() {
		return fmt.Errorf("centre of mass %v is not finite", s.Com)
	}
	if !s.Icom.IsFinite() {
		return fmt.Errorf("inertia %v is not finite", s.Icom)
	}
	for i := range 3 {
		for j := range i {
			if d := math.Abs(s.Icom[i][j] - s.Icom[j][i]); d > 1e-12*s.Icom.FrobeniusNorm() {
				return fmt.Errorf("inertia %v is not symmetric", s.Icom)
			}
		}
	}
	if _, ok := s.Icom.Cholesky(); !ok {
		return fmt.Errorf("inertia %v is not positive definite", s.Icom)
	}
	d := Vec3{s.Icom[0][0], s.Icom[1][1], s.Icom[2][2]}
	tol := 1e-12 * (d[0] + d[1] + d[2])
	if d[0]+d[1] < d[2]-tol || d[1]+d[2] < d[0]-tol || d[0]+d[2] < d[1]-tol {
		return fmt.Errorf("inertia diagonal %v violates the triangle inequality", d)
	}
	return nil
}

// IAbout returns the rotational inertia about the frame origin,
// Icom − m [c][c] (the lower-right block of notes §0.1).
func (s SpatialInertia) IAbout() Mat3 {
	c := Skew(s.Com)
	return s.Icom.Sub(c.Mul(c).Scale(s.Mass))
}

// Matrix returns the 6×6 spatial inertia in Stiction's (angular, linear)
// order. Notes §0.1 writes it for (linear, angular) as
// [[mI, −m[c]], [m[c], Icom − m[c][c]]]; swapping the block order gives
// [[Icom − m[c][c], m[c]], [−m[c], mI]].
func (s SpatialInertia) Matrix() [6][6]float64 {
	var M [6][6]float64
	io := s.IAbout()
	mc := Skew(s.Com).Scale(s.Mass)
	for i := range 3 {
		for j := range 3 {
			M[i][j] = io[i][j]
			M[i][3+j] = mc[i][j]
			M[3+i][j] = -mc[i][j]
		}
		M[3+i][3+i] = s.Mass
	}
	return M
}

// InverseMatrix returns M⁻¹ in (angular, linear) order, from the closed
// form of notes §0.1: for (linear, angular) order
// M⁻¹ = [[I/m − [c] J⁻¹ [c], [c] J⁻¹], [−J⁻¹ [c], J⁻¹]] with J = Icom.
// It returns false if Icom is singular.
func (s SpatialInertia) InverseMatrix() ([6][6]float64, bool) {
	var Mi [6][6]float64
	ji, ok := s.Icom.Inverse()
	if !ok {
		return Mi, false
	}
	c := Skew(s.Com)
	tl := Identity3().Scale(1 / s.Mass).Sub(c.Mul(ji).Mul(c)) // linear-linear
	tr := c.Mul(ji)                                           // linear-angular
	bl := ji.Mul(c).Scale(-1)                                 // angular-linear
	for i := range 3 {
		for j := range 3 {
			Mi[i][j] = ji[i][j]
			Mi[i][3+j] = bl[i][j]
			Mi[3+i][j] = tr[i][j]
			Mi[3+i][3+j] = tl[i][j]
		}
	}
	return Mi, true
}

// Factor returns the lower-triangular-by-blocks G with M = G Gᵀ in
// (angular, linear) order. Notes §0.1 gives, for (linear, angular) order,
// G = [[√m I, 0], [√m [c], L]] with Icom = L Lᵀ; reordering the blocks
// gives [[L, √m [c]], [0, √m I]]. It returns false if Icom is not SPD.
func (s SpatialInertia) Factor() ([6][6]float64, bool) {
	var G [6][6]float64
	l, ok := s.Icom.Cholesky()
	if !ok {
		return G, false
	}
	sm := math.Sqrt(s.Mass)
	c := Skew(s.Com).Scale(sm)
	for i := range 3 {
		for j := range 3 {
			G[i][j] = l[i][j]
			G[i][3+j] = c[i][j]
		}
		G[3+i][3+i] = sm
	}
	return G, true
}

// RotateInertia returns the rotational inertia R Icom Rᵀ expressed in a frame
// rotated by R relative to the body frame.
func RotateInertia(r Mat3, i Mat3) Mat3 { return r.Mul(i).Mul(r.T()) }
