package contact

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stiction-sim/stiction/spatial"
)

// combinePlain is Combine's harmonic rule as it was written before
// combineTo (a copy of the soft side, then one literal): the form
// combineTo must match bit for bit.
func combinePlain(a, b Material) Material {
	if a.MaxFriction && b.MaxFriction {
		return combineMax(a, b)
	}
	soft := a
	switch {
	case a.SlipTime == 0:
		soft = b
	case b.SlipTime > 0:
		soft.SlipTime = 0.5 * (a.SlipTime + b.SlipTime)
		soft.SlipStiffness = 0.5 * (a.SlipStiffness + b.SlipStiffness)
		for i := range soft.SlipImp {
			soft.SlipImp[i] = 0.5 * (a.SlipImp[i] + b.SlipImp[i])
		}
		soft.SlipRef = [2]float64{}
		if a.SlipRef != soft.SlipRef && b.SlipRef != soft.SlipRef {
			soft.SlipRef = MixSolRef(a.SlipRef, b.SlipRef)
		}
	}
	ca, cb := 1/a.Stiffness, 1/b.Stiffness
	return Material{
		Stiffness:     1 / (ca + cb),
		Dissipation:   (ca*a.Dissipation + cb*b.Dissipation) / (ca + cb),
		Friction:      harmonic(a.Friction, b.Friction),
		Rolling:       harmonic(a.Rolling, b.Rolling),
		Spin:          harmonic(a.Spin, b.Spin),
		Anchors:       a.Anchors && b.Anchors,
		SlipTime:      soft.SlipTime,
		SlipImp:       soft.SlipImp,
		SlipStiffness: soft.SlipStiffness,
		SlipRef:       soft.SlipRef,
		SlipWeight:    a.SlipWeight + b.SlipWeight,
		WeightSet:     a.WeightSet && b.WeightSet,
	}
}

// awkward returns a random value among zeros of both signs, NaN, ±Inf and
// ordinary numbers of either sign.
func awkward(r *rand.Rand) float64 {
	switch r.IntN(8) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.NaN()
	case 3:
		return math.Inf(1 - 2*r.IntN(2))
	case 4:
		return -r.Float64()
	}
	return r.Float64() * math.Pow(10, float64(r.IntN(12)-6))
}

func randomMaterial(r *rand.Rand) Material {
	m := Material{Stiffness: awkward(r), Dissipation: awkward(r), Friction: awkward(r), Rolling: awkward(r),
		Spin: awkward(r), Anchors: r.IntN(2) == 0, SlipStiffness: awkward(r), SlipWeight: awkward(r),
		WeightSet: r.IntN(2) == 0, MaxFriction: r.IntN(3) == 0, Condim: r.IntN(7), Priority: r.IntN(2)}
	if r.IntN(3) > 0 {
		m.SlipTime = awkward(r)
	}
	if r.IntN(2) == 0 {
		m.SlipRef = [2]float64{awkward(r), awkward(r)}
	}
	for i := range m.SlipImp {
		m.SlipImp[i] = awkward(r)
	}
	return m
}

// materialBits is a Material's memory, to compare two bit for bit (NaNs
// and signed zeros included).
type materialBits [unsafe.Sizeof(Material{})]byte

// TestAsm3CombineToPlain: Combine (through combineTo, in place) gives the
// bits of its plain form on random materials, awkward values included,
// and the assembler's recall points at the same bits.
func TestAsm3CombineToPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 15))
	for trial := range 20000 {
		a, b := randomMaterial(r), randomMaterial(r)
		got, want := Combine(a, b), combinePlain(a, b)
		if *(*materialBits)(unsafe.Pointer(&got)) != *(*materialBits)(unsafe.Pointer(&want)) {
			t.Fatalf("trial %d: Combine(%+v, %+v) = %+v, plain form %+v", trial, a, b, got, want)
		}
	}
}

// sameFloat reports whether x and y have the same bits, or are both NaN:
// a NaN's sign and payload follow the order in which the compiler puts a
// commutative operation's operands in registers, which Go does not fix.
func sameFloat(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
}

// TestAsm3VectorsInPlace: tangentSum, onPlane, norm3 and capNorm give the
// bits of the spatial.Vec3 method chains they replace (signed zeros
// included), on random and awkward vectors.
func TestAsm3VectorsInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 16))
	vec := func() spatial.Vec3 { return spatial.Vec3{awkward(r), awkward(r), awkward(r)} }
	same := func(x, y spatial.Vec3) bool {
		for k := range 3 {
			if !sameFloat(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	for trial := range 20000 {
		f := frame{vec(), vec(), vec()}
		s1, s2, c := awkward(r), awkward(r), awkward(r)
		if got, want := tangentSum(&f, s1, s2), f[0].Scale(s1).Add(f[1].Scale(s2)); !same(got, want) {
			t.Fatalf("trial %d: tangentSum %v, methods %v", trial, got, want)
		}
		x, n := vec(), vec()
		if got, want := onPlane(&x, &n), x.Sub(n.Scale(x.Dot(n))); !same(got, want) {
			t.Fatalf("trial %d: onPlane %v, methods %v", trial, got, want)
		}
		if got, want := norm3(&x), x.Norm(); !sameFloat(got, want) {
			t.Fatalf("trial %d: norm3 %v, Norm %v", trial, got, want)
		}
		want := x
		if l := x.Norm(); l > c {
			want = x.Scale(c / l)
		}
		if capNorm(&x, c); !same(x, want) {
			t.Fatalf("trial %d: capNorm %v, methods %v", trial, x, want)
		}
	}
}
