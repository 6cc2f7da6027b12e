package multibody

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestKinIdentityMulMatches: identityMul is QuatIdentity().Mul(p) to the
// bit on bareWalk's domain: finite entries (either sign of zero, tiny and
// huge ones) and NaNs of one payload, the hinge's (c, s u) for a coordinate
// that is finite or not (Sincos's NaNs; never an infinity, |s|, |c| ≤ 1).
// Go orders a commutative product's operands its own way, so two NaNs of
// different payloads may come out the other way round: not a case here.
func TestKinIdentityMulMatches(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.NaN(), 1e-310, -3e300}
	pick := func() float64 {
		if rng.Intn(2) == 0 {
			return special[rng.Intn(len(special))]
		}
		return rng.NormFloat64()
	}
	bits := func(q spatial.Quat) [4]uint64 {
		return [4]uint64{math.Float64bits(q.W), math.Float64bits(q.X), math.Float64bits(q.Y), math.Float64bits(q.Z)}
	}
	for trial := range 200000 {
		p := spatial.Quat{W: pick(), X: pick(), Y: pick(), Z: pick()}
		if got, want := identityMul(p), spatial.QuatIdentity().Mul(p); bits(got) != bits(want) {
			t.Fatalf("trial %d: p %v: identityMul %v, Mul %v", trial, p, got, want)
		}
	}
}
