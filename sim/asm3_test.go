package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// mujocoTangentsPlain is mujocoTangents (without a plane–capsule axis) in
// spatial.Vec3's methods, as it was written before dot3: the form it must
// match bit for bit.
func mujocoTangentsPlain(n spatial.Vec3, dirs *[3]spatial.Vec3) [2][2]float64 {
	y := spatial.Vec3{0, 1, 0}
	if !(n[1] < 0.5 && n[1] > -0.5) {
		y = spatial.Vec3{0, 0, 1}
	}
	y = y.Sub(n.Scale(n.Dot(y)))
	if l := y.Norm(); l < 1e-15 {
		y = spatial.Vec3{1, 0, 0}
	} else {
		y = y.Scale(1 / l)
	}
	z := n.Cross(y)
	t1, t2 := dirs[0], dirs[1]
	return [2][2]float64{{y.Dot(t1), y.Dot(t2)}, {z.Dot(t1), z.Dot(t2)}}
}

// TestAsm3MujocoTangentsPlain: mujocoTangents gives its plain form's bits
// (NaN for NaN) for random unit normals, normals along the axes (zero
// projections, signed zeros) and awkward ones, in random frames.
func TestAsm3MujocoTangentsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 17))
	m := &multibody.Model{Geometries: []multibody.Geometry{{Shape: geometry.Shape{Kind: geometry.Sphere}}, {Shape: geometry.Shape{Kind: geometry.Box}}}}
	pick := func() float64 {
		switch r.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return 1 - 2*float64(r.IntN(2))
		case 3:
			return []float64{math.NaN(), math.Inf(1), 0.5, -0.5}[r.IntN(4)]
		}
		return 2*r.Float64() - 1
	}
	for trial := range 20000 {
		n := spatial.Vec3{pick(), pick(), pick()}
		if r.IntN(2) == 0 {
			n, _ = n.Normalize()
		}
		dirs := [3]spatial.Vec3{{pick(), pick(), pick()}, {pick(), pick(), pick()}, n}
		pr := contact.Pair{GeomA: 0, GeomB: 1}
		pr.Normal = n
		got := [2][2]float64{{math.NaN(), 1}, {2, 3}} // every entry written
		mujocoTangents(m, nil, &pr, &dirs, &got)
		want := mujocoTangentsPlain(n, &dirs)
		for j := range 2 {
			for k := range 2 {
				x, y := got[j][k], want[j][k]
				if math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
					t.Fatalf("trial %d: n %v, frame %v: %v, plain form %v", trial, n, dirs, got, want)
				}
			}
		}
	}
}
