package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestRunProfile: `run --profile` prints, after the summary, a markdown
// table with one row per stage of the step, the refiner's re-solves, the
// time outside the stages, the stepping time and the recording time, each
// with a non-negative total, mean per step and share; the stage totals sum
// to at most the stepping total, and the shares are of that total.
func TestRunProfile(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"run", "clutter", "--duration", "0.3", "--profile", "--quiet", "--out", t.TempDir()}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	text := out.String()
	i := strings.Index(text, "| stage |")
	if i < 0 {
		t.Fatalf("no profile table in %q", text)
	}
	rows := map[string][3]float64{}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(text[i:]), "\n")[2:] {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 {
			t.Fatalf("row %q: %d cells, want 4", line, len(cells))
		}
		var v [3]float64
		for k := range v {
			x, err := strconv.ParseFloat(cells[k+1], 64)
			if err != nil || x < 0 {
				t.Fatalf("row %q: cell %q: %v", line, cells[k+1], err)
			}
			v[k] = x
		}
		rows[cells[0]] = v
		order = append(order, cells[0])
	}
	want := []string{"kinematics", "broad phase", "narrow phase", "contact memory", "free motion", "contact assembly",
		"constraint assembly", "elimination", "solve", "expansion", "position update", "stats and energies"}
	if len(order) != len(want)+4 {
		t.Fatalf("rows %q, want the stages %q and four more", order, want)
	}
	sum := 0.0
	for k, name := range want {
		if order[k] != name {
			t.Fatalf("row %d is %q, want %q", k, order[k], name)
		}
		sum += rows[name][0]
	}
	step := rows["stepping"]
	if step[0] <= 0 || sum > step[0]+1e-5 || step[2] != 100 {
		t.Errorf("stages sum to %g s, stepping %v", sum, step)
	}
	if !strings.HasPrefix(order[len(want)], "solve: ") || !strings.HasSuffix(order[len(want)], " re-solves") {
		t.Errorf("re-solve row %q", order[len(want)])
	}
	if _, ok := rows["recording (runner)"]; !ok {
		t.Errorf("no recording row in %q", order)
	}
}
