package constraint

import (
	"math"
	"math/rand"
	"testing"
)

// smallfixSideIdle is limit's own per-side rule: a bound has no row when
// it is infinite or noRow holds at its gap.
func smallfixSideIdle(a *Assembler, c *asmCtx, l *Limit, q float64, side int) bool {
	bound, g := l.Lower, q-l.Lower-l.Margin
	if side == 1 {
		bound, g = l.Upper, l.Upper-q-l.Margin
	}
	return math.IsInf(bound, 0) || a.noRow(c, &l.Compliance, g)
}

// TestSmallfixLimitIdleMatchesSides checks limit's shortcut (limitIdle)
// against its loop's rule on both sides, over random bounds (infinite
// ones included), margins, compliances and coordinates (past, on and
// within the bounds, ±Inf and NaN), with Params.MuJoCoLimits on and off:
// the shortcut may answer true only when neither side makes a row, and
// must answer true whenever that holds for a finite coordinate of a limit
// with MuJoCo's compliance under MuJoCoLimits (the case it is for; the
// others take limit's loop).
func TestSmallfixLimitIdleMatchesSides(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	var a Assembler
	pick := func(xs ...float64) float64 { return xs[rng.Intn(len(xs))] }
	idle := 0
	for n := range 20000 {
		lo := pick(math.Inf(-1), -1, -0.5, 0, rng.NormFloat64())
		hi := pick(math.Inf(1), 1, 0.5, 0, lo+rng.Float64())
		if hi < lo {
			lo, hi = hi, lo
		}
		if math.IsInf(hi, -1) { // a valid limit (Limit.validate): Upper > −∞
			hi = 1
		}
		l := Limit{Lower: lo, Upper: hi, Margin: pick(0, 0, 0.01, 0.1, rng.Float64()*0.2)}
		if rng.Intn(3) > 0 {
			l.Compliance = Compliance{SolRef: DefaultSolRef, SolImp: DefaultSolImp}
		}
		q := pick(lo, hi, lo+l.Margin, hi-l.Margin, (lo+hi)/2, 2*rng.NormFloat64(), math.Inf(1), math.Inf(-1), math.NaN())
		c := &asmCtx{prm: Params{MuJoCoLimits: n%4 != 0}}
		want := smallfixSideIdle(&a, c, &l, q, 0) && smallfixSideIdle(&a, c, &l, q, 1)
		got := a.limitIdle(c, &l, q)
		covered := c.prm.MuJoCoLimits && l.Compliance.mujoco() && !math.IsInf(q, 0) && !math.IsNaN(q)
		if got && !want || !got && want && covered {
			t.Fatalf("draw %d: limit [%v, %v] margin %v solref %v, q %v, MuJoCoLimits %v: limitIdle %v, the sides say %v",
				n, lo, hi, l.Margin, l.Compliance.SolRef, q, c.prm.MuJoCoLimits, got, want)
		}
		if got {
			idle++
		}
	}
	if idle < 2000 {
		t.Fatalf("only %d of 20000 draws idle: the shortcut is barely exercised", idle)
	}
}
