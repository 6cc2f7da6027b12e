package constraint

import (
	"fmt"
	"math"
	"sort"
)

// Signal is a function of time: the control input of an actuator or a
// prescribed coordinate. Eval returns its value and its rate (time
// derivative) at t. Implementations must not allocate.
type Signal interface {
	Eval(t float64) (value, rate float64)
}

// Constant is a constant signal.
type Constant float64

// Eval returns (c, 0).
func (c Constant) Eval(float64) (float64, float64) { return float64(c), 0 }

// Sine is Offset + Amplitude·sin(2π Frequency t + Phase), Frequency in Hz.
type Sine struct {
	Offset, Amplitude, Frequency, Phase float64
}

// Eval returns the value and its derivative 2π f A cos(2π f t + φ).
func (s Sine) Eval(t float64) (float64, float64) {
	w := 2 * math.Pi * s.Frequency
	return s.Offset + s.Amplitude*math.Sin(w*t+s.Phase), s.Amplitude * w * math.Cos(w*t+s.Phase)
}

// Table is piecewise linear through the points (T[k], V[k]), T strictly
// increasing; the first and last values hold outside [T[0], T[n−1]].
type Table struct {
	T, V []float64
}

// NewTable returns a Table of rows [t, value], checking that there is at
// least one row and that times increase.
func NewTable(rows [][2]float64) (Table, error) {
	if len(rows) == 0 {
		return Table{}, fmt.Errorf("constraint: empty table")
	}
	tb := Table{T: make([]float64, len(rows)), V: make([]float64, len(rows))}
	for k, r := range rows {
		if k > 0 && !(r[0] > rows[k-1][0]) {
			return Table{}, fmt.Errorf("constraint: table row %d: time %v is not after %v", k, r[0], rows[k-1][0])
		}
		tb.T[k], tb.V[k] = r[0], r[1]
	}
	return tb, nil
}

// Eval returns the interpolated value and the slope of its segment (0
// outside the table; at a row time, the slope of the segment that starts
// there).
func (tb Table) Eval(t float64) (float64, float64) {
	n := len(tb.T)
	if n == 1 || t < tb.T[0] {
		return tb.V[0], 0
	}
	if t >= tb.T[n-1] {
		return tb.V[n-1], 0
	}
	k := sort.SearchFloat64s(tb.T, t) // T[k-1] < t ≤ T[k]
	if tb.T[k] == t && k+1 < n {
		k++
	}
	s := (tb.V[k] - tb.V[k-1]) / (tb.T[k] - tb.T[k-1])
	return tb.V[k-1] + s*(t-tb.T[k-1]), s
}

// Func adapts a Go function returning value and rate to a Signal.
type Func func(t float64) (value, rate float64)

// Eval calls f.
func (f Func) Eval(t float64) (float64, float64) { return f(t) }
