package solver

import "testing"

func TestResizeKeepsContents(t *testing.T) {
	var s []float64
	for i := range 10 {
		s = Resize(s, len(s)+3)
		s[len(s)-3], s[len(s)-2], s[len(s)-1] = float64(i), float64(i), float64(i)
	}
	for i, x := range s {
		if x != float64(i/3) {
			t.Fatalf("s[%d] = %v after growing, want %v", i, x, i/3)
		}
	}
	if s2 := Resize(s, 4); &s2[0] != &s[0] || s2[3] != 1 {
		t.Fatal("shrinking should reuse storage and keep contents")
	}
}
