package model

import (
	"fmt"
	"math"
	"strconv"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// RPY returns the rotation of roll r about x, then pitch p about the
// (fixed) y axis, then yaw y about the (fixed) z axis: R = Rz(y) Ry(p)
// Rx(r), URDF's and SDFormat's convention.
func RPY(r, p, y float64) spatial.Quat {
	qx := spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, r)
	qy := spatial.QuatFromAxisAngle(spatial.Vec3{0, 1, 0}, p)
	qz := spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 1}, y)
	return qz.Mul(qy).Mul(qx)
}

// Default contact material of URDF and SDFormat models, which carry no
// contact parameters unless they use Drake's drake:proximity_properties.
const (
	DefaultMaterial    = "default"
	DefaultStiffness   = 1e12 // N/m
	DefaultDissipation = 1e-3 // s
	DefaultFriction    = 0.5
)

// NewScene returns a scene with the settings an imported model starts
// from: its name, time step dt, a duration of 1 s and the default material.
func NewScene(name string, dt float64) *scene.Scene {
	return &scene.Scene{
		Name: name, DT: dt, Duration: 1,
		Materials: map[string]scene.Material{DefaultMaterial: NewMaterial(DefaultStiffness, DefaultDissipation, DefaultFriction)},
	}
}

// NewMaterial returns a scene material.
func NewMaterial(k, tau, mu float64) scene.Material {
	return scene.Material{Stiffness: &k, Dissipation: &tau, Friction: &mu}
}

// MaterialFor returns the name of a material with the given parameters in
// s, adding one named prefix + a number if none matches.
func MaterialFor(s *scene.Scene, prefix string, k, tau, mu float64) string {
	for _, n := range sortedNames(s.Materials) {
		m := s.Materials[n]
		if *m.Stiffness == k && *m.Dissipation == tau && *m.Friction == mu {
			return n
		}
	}
	for i := 0; ; i++ {
		n := prefix + strconv.Itoa(i)
		if _, ok := s.Materials[n]; !ok {
			s.Materials[n] = NewMaterial(k, tau, mu)
			return n
		}
	}
}

func sortedNames(m map[string]scene.Material) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// CheckInertia checks a rotational inertia from a file: symmetric positive
// semi-definite with principal moments that satisfy the triangle
// inequality (to a relative 1e-9, as files round their values). It returns
// a message for an error, or "".
func CheckInertia(I spatial.Mat3, mass float64) string {
	if mass < 0 {
		return fmt.Sprintf("mass %g is negative", mass)
	}
	if mass == 0 {
		return ""
	}
	if !I.IsFinite() {
		return "inertia is not finite"
	}
	ev := eig3(I)
	scale := math.Max(math.Abs(ev[2]), 1e-300)
	if ev[0] < -1e-9*scale {
		return fmt.Sprintf("inertia is not positive semi-definite (principal moments %.6g, %.6g, %.6g)", ev[0], ev[1], ev[2])
	}
	if ev[2] > ev[0]+ev[1]+1e-9*scale {
		return fmt.Sprintf("principal moments %.6g, %.6g, %.6g violate the triangle inequality (a rigid body's largest moment is at most the sum of the others)", ev[0], ev[1], ev[2])
	}
	if ev[2] <= 0 {
		return "inertia is zero for a body with mass"
	}
	return ""
}

// eig3 returns the eigenvalues of a symmetric 3×3 matrix in ascending
// order.
func eig3(I spatial.Mat3) [3]float64 {
	ev, _ := EigSym3(I)
	return ev
}

// EigSym3 returns the eigenvalues, in ascending order, and the unit
// eigenvectors (the columns of V) of the symmetric part of A
// (spatial.EigSym3).
func EigSym3(A spatial.Mat3) (ev [3]float64, V [3][3]float64) { return spatial.EigSym3(A) }
