package viewer

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// tiltedInertiaScene is a free body whose inertia about its COM, in its
// body frame, is R diag(0.01, 0.02, 0.025) Rᵀ with R the rotation of 30°
// about z then 45° about x: full, with off-diagonal terms.
const tiltedInertiaScene = `name: tilted
dt: 0.002
duration: 1
gravity: [0, 0, 0]
materials:
  default: {stiffness: 1e8, dissipation: 0.01, friction: 0.8}
bodies:
  - name: tilted
    shape: {type: sphere, radius: 0.1}
    material: default
    mass: 2
    inertia:
      matrix:
        - [%v, %v, %v]
        - [%v, %v, %v]
        - [%v, %v, %v]
`

// TestHelloPrincipalInertia: the hello gives a body with an off-diagonal
// inertia its principal moments (ascending) and right-handed unit principal
// axes that rebuild the matrix, I = Σ I_k a_k a_kᵀ, so that the page draws
// its inertia box along them (as MuJoCo does) rather than along the body
// frame with the diagonal.
func TestHelloPrincipalInertia(t *testing.T) {
	c, s := math.Cos(math.Pi/6), math.Sin(math.Pi/6)
	rz := [3][3]float64{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
	c, s = math.Cos(math.Pi/4), math.Sin(math.Pi/4)
	rx := [3][3]float64{{1, 0, 0}, {0, c, -s}, {0, s, c}}
	var r [3][3]float64 // R = Rx Rz
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				r[i][j] += rx[i][k] * rz[k][j]
			}
		}
	}
	moments := [3]float64{0.01, 0.02, 0.025}
	var in [3][3]float64
	var args []any
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				in[i][j] += r[i][k] * moments[k] * r[j][k]
			}
		}
	}
	for i := range 3 {
		for j := range 3 {
			args = append(args, in[i][j])
		}
	}
	file := filepath.Join(t.TempDir(), "tilted.yaml")
	if err := os.WriteFile(file, fmt.Appendf(nil, tiltedInertiaScene, args...), 0o644); err != nil {
		t.Fatal(err)
	}
	if math.Abs(in[0][1]) < 1e-3 || math.Abs(in[1][2]) < 1e-3 {
		t.Fatalf("test inertia %v is not off-diagonal", in)
	}
	sess, err := NewSession(testLoader, file, SessionOptions{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	b := sess.hello().Bodies[0]
	for k := range 3 {
		if math.Abs(b.Inertia[k]-moments[k]) > 1e-12 {
			t.Errorf("principal moments %v, want %v", b.Inertia, moments)
			break
		}
	}
	a := b.InertiaAxes
	for i := range 3 {
		for j := range 3 {
			var sum, dot float64
			for k := range 3 {
				sum += b.Inertia[k] * a[k][i] * a[k][j]
				dot += a[i][k] * a[j][k]
			}
			if math.Abs(sum-in[i][j]) > 1e-12 {
				t.Errorf("Σ I_k a_k a_kᵀ [%d][%d] = %v, want %v", i, j, sum, in[i][j])
			}
			if want := map[bool]float64{true: 1, false: 0}[i == j]; math.Abs(dot-want) > 1e-12 {
				t.Errorf("axes %d·%d = %v, want %v", i, j, dot, want)
			}
		}
	}
	det := a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) - a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) + a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	if math.Abs(det-1) > 1e-12 {
		t.Errorf("principal axes %v: determinant %v, want +1 (right-handed)", a, det)
	}
}
