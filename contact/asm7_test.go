package contact

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"
)

// combineMax is MuJoCo's rule of Combine in its plain form, as it was
// written before combineMaxTo (two Materials by value, Combine of the
// copies without MaxFriction, then the fields it overrides): the form
// combineMaxTo must match bit for bit (TestAsm3CombineToPlain,
// TestAsm7CombineMaxTo).
func combineMax(a, b Material) Material {
	if a.Priority != b.Priority {
		return combinePriority(a, b)
	}
	a.MaxFriction, b.MaxFriction = false, false
	c := Combine(a, b)
	c.MaxFriction = true
	c.Priority = a.Priority
	c.Friction = max(a.Friction, b.Friction)
	c.Spin = max(a.Spin, b.Spin)
	c.Rolling = max(a.Rolling, b.Rolling)
	if a.Condim > 0 && b.Condim > 0 {
		c.Condim = max(a.Condim, b.Condim)
		c.Friction, c.Spin, c.Rolling = condimCoef(c.Condim, 3, c.Friction), condimCoef(c.Condim, 4, c.Spin), condimCoef(c.Condim, 6, c.Rolling)
	}
	invB := func(m Material) float64 { return m.SlipTime / (1 + m.Friction*m.Friction) }
	switch {
	case a.SlipTime > 0 && b.SlipTime > 0:
		c.SlipTime = 0.5 * (invB(a) + invB(b))
	case a.SlipTime > 0:
		c.SlipTime = invB(a)
	case b.SlipTime > 0:
		c.SlipTime = invB(b)
	}
	c.SlipTime *= 1 + c.Friction*c.Friction
	return c
}

// TestAsm7CombineMaxTo: combineTo of two MaxFriction materials, written
// in place into a material whose every field holds another value, gives
// the bits of combineMax's plain form, for random materials of equal and
// different priorities, all condims, with and without slip times,
// references and weights, and awkward values (zeros of both signs, ±Inf;
// NaN where the plain form gives the same bits).
func TestAsm7CombineMaxTo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 165))
	for trial := range 20000 {
		a, b := randomMaterial(r), randomMaterial(r)
		a.MaxFriction, b.MaxFriction = true, true
		if r.IntN(4) > 0 {
			b.Priority = a.Priority // mostly the common case: one priority
		}
		c := asm6Dirty()
		combineTo(&c, &a, &b)
		want := combineMax(a, b)
		if *(*materialBits)(unsafe.Pointer(&c)) != *(*materialBits)(unsafe.Pointer(&want)) && !reflect.DeepEqual(c, want) {
			t.Fatalf("trial %d: combineTo(%+v, %+v) = %+v, plain form %+v", trial, a, b, c, want)
		}
	}
}
