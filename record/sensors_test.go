package record

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestSensorsRoundTrip: sensors.csv reads back bit for bit (non-finite
// values included), a warmed-up row does not allocate, and a resumed file
// keeps its rows up to the checkpoint's time.
func TestSensorsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	names := []string{"q", "p[0]", "p[1]"}
	w, err := CreateSensors(dir, names, -1)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]float64{{0.1, 1.0 / 3, -2e-300}, {math.Pi, math.Inf(1), math.NaN()}, {-0.5, 7, 1e300}}
	times := []float64{0.1, 0.2, 0.30000000000000004}
	for i, r := range rows {
		w.Row(times[i], r)
	}
	if n := testing.AllocsPerRun(100, func() { w.Row(0.4, rows[0]) }); n != 0 {
		t.Errorf("Row allocates %v times", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSensors(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Names) != 3 || got.Names[1] != "p[0]" || len(got.T) != 3+101 {
		t.Fatalf("names %v, %d rows", got.Names, len(got.T))
	}
	for i, r := range rows {
		for k, x := range r {
			y := got.Values[i][k]
			if math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
				t.Errorf("row %d col %d: %v read back as %v", i, k, x, y)
			}
		}
	}
	if got.T[2] != 0.3 {
		t.Errorf("t %v written with 15 digits: want 0.3", got.T[2])
	}
	// Resume at t = 0.2: rows after it are dropped, new ones appended.
	w, err = CreateSensors(dir, names, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	w.Row(0.25, rows[2])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err = ReadSensors(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.T) != 3 || got.T[2] != 0.25 {
		t.Errorf("resumed file times %v, want [0.1 0.2 0.25]", got.T)
	}
	if _, err := os.Stat(filepath.Join(dir, SensorsFile)); err != nil {
		t.Fatal(err)
	}
}
