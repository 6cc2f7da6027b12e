package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// satDepth returns the exact penetration depth (minimum translation
// distance) of two overlapping boxes by brute force: the minimum overlap of
// the vertex projections over the 15 separating-axis candidates. It is
// negative (minus the gap along the best axis) when they are separated.
func satDepth(a Shape, xa spatial.Pose, b Shape, xb spatial.Pose) float64 {
	ra, rb := xa.R.RotMat(), xb.R.RotMat()
	var axes []spatial.Vec3
	for i := range 3 {
		axes = append(axes, ra.Col(i), rb.Col(i))
		for j := range 3 {
			if c, n := ra.Col(i).Cross(rb.Col(j)).Normalize(); n > 1e-9 {
				axes = append(axes, c)
			}
		}
	}
	verts := func(s Shape, x spatial.Pose) []spatial.Vec3 {
		var v []spatial.Vec3
		for k := range 8 {
			c := spatial.Vec3{float64(k&1)*2 - 1, float64(k>>1&1)*2 - 1, float64(k>>2&1)*2 - 1}
			v = append(v, x.Apply(c.Mul(s.HalfExtents)))
		}
		return v
	}
	va, vb := verts(a, xa), verts(b, xb)
	depth := math.Inf(1)
	for _, ax := range axes {
		mina, maxa, minb, maxb := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range va {
			mina, maxa = math.Min(mina, ax.Dot(p)), math.Max(maxa, ax.Dot(p))
		}
		for _, p := range vb {
			minb, maxb = math.Min(minb, ax.Dot(p)), math.Max(maxb, ax.Dot(p))
		}
		depth = math.Min(depth, math.Min(maxa-minb, maxb-mina))
	}
	return depth
}

// TestBoxBoxDepthMatchesBruteForce: for random, deeply overlapping box
// pairs, the deepest manifold point's −φ equals the exact penetration depth.
func TestBoxBoxDepthMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 7))
	randQ := func() spatial.Quat {
		return spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	}
	// The pose pair from a clutter run where box–box reported φ = −0.222 m
	// for two 10 cm cubes whose centres were 7.7 cm apart.
	cube := NewBox(spatial.Vec3{0.1, 0.1, 0.1})
	type pair struct {
		a, b   Shape
		xa, xb spatial.Pose
	}
	cases := []pair{{cube, cube,
		spatial.Pose{R: spatial.Quat{W: -0.6836622534627592, X: -0.3485059639212748, Y: 0.014319890267280018, Z: 0.6410494965634542}, P: spatial.Vec3{-0.26163217578736736, -0.18920515126982945, 0.11498128336170095}},
		spatial.Pose{R: spatial.Quat{W: 0.7885731609256336, X: 0.5353252922223903, Y: -0.2638823702567155, Z: -0.14813944796192896}, P: spatial.Vec3{-0.2195914290471582, -0.24769508922950345, 0.14183279851577388}}}}
	for range 500 {
		a := NewBox(spatial.Vec3{0.05 + 0.2*r.Float64(), 0.05 + 0.2*r.Float64(), 0.05 + 0.2*r.Float64()})
		b := NewBox(spatial.Vec3{0.05 + 0.2*r.Float64(), 0.05 + 0.2*r.Float64(), 0.05 + 0.2*r.Float64()})
		d := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Scale(0.06)
		cases = append(cases, pair{a, b, spatial.Pose{R: randQ()}, spatial.Pose{R: randQ(), P: d}})
	}
	bad := 0
	for i, c := range cases {
		want := satDepth(c.a, c.xa, c.b, c.xb)
		if want <= 0 {
			continue
		}
		cs := Collide(c.a, c.xa, c.b, c.xb, 0, nil)
		if len(cs) == 0 {
			t.Errorf("case %d: overlapping boxes (depth %g) gave no contact", i, want)
			bad++
			continue
		}
		deepest := math.Inf(1)
		for _, k := range cs {
			deepest = math.Min(deepest, k.Phi)
		}
		if math.Abs(-deepest-want) > 1e-9*(1+want) {
			t.Errorf("case %d: deepest φ = %.6g, exact depth %.6g (%d points, n = %v)", i, deepest, want, len(cs), cs[0].Normal)
			bad++
		}
		if bad > 10 {
			t.Fatal("too many failures")
		}
	}
}
