package mjcf

import (
	"math"
	"testing"
)

// TestCrSinCosGlibc: crSinCos gives glibc's sin and cos of half angles
// in degrees a/180·π/2 (the values below are glibc 2.36's, as MuJoCo
// 2.2.2 computes its euler frames; Go's math.Cos differs on −80°), and
// stays within one unit in the last place of math's elsewhere.
func TestCrSinCosGlibc(t *testing.T) {
	for _, c := range [][3]float64{
		{3, 0.02617694830787315, 0.9996573249755573},
		{5, 0.043619387365336, 0.9990482215818578},
		{-80, -0.6427876096865393, 0.766044443118978},
		{7, 0.06104853953485687, 0.9981347984218669},
		{30, 0.25881904510252074, 0.9659258262890683},
		{-130, -0.9063077870366499, 0.42261826174069944},
		{40, 0.3420201433256687, 0.9396926207859084},
		{90, 0.7071067811865475, 0.7071067811865476},
		{17, 0.1478094111296106, 0.9890158633619168},
		{123.4, 0.880477353509162, 0.47408820904711624},
		{-359, -0.008726535498373959, -0.9999619230641713},
	} {
		s, co := crSinCos(c[0] / 180 * math.Pi / 2)
		if s != c[1] || co != c[2] {
			t.Errorf("%g°: sin, cos %v %v, glibc %v %v", c[0], s, co, c[1], c[2])
		}
	}
	ulp := func(a, b float64) float64 {
		return math.Abs(a-b) / math.Max(math.Nextafter(math.Abs(b), 2)-math.Abs(b), 5e-324)
	}
	for k := -4000; k <= 4000; k++ {
		x := float64(k) * 1e-3 * 7
		s, c := crSinCos(x)
		if ulp(s, math.Sin(x)) > 1 || ulp(c, math.Cos(x)) > 1 {
			t.Fatalf("x = %v: %v %v, math %v %v", x, s, c, math.Sin(x), math.Cos(x))
		}
	}
	if s, c := crSinCos(math.Inf(1)); !math.IsNaN(s) || !math.IsNaN(c) {
		t.Errorf("inf: %v %v", s, c)
	}
}
