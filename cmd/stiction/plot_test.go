package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlot plots a clutter run to PNG and SVG and checks both files.
func TestPlot(t *testing.T) {
	dir := recordClutter(t)
	tmp := t.TempDir()
	pngPath, svgPath := filepath.Join(tmp, "p.png"), filepath.Join(tmp, "p.svg")
	for _, out := range []string{pngPath, svgPath} {
		if code, _, errs := runCLI("plot", dir, "--y", "energy,iterations,momentum_error,contacts", "--out", out); code != 0 {
			t.Fatalf("plot %s: exit %d: %s", out, code, errs)
		}
	}
	data, err := os.ReadFile(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", pngPath, err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 600 || distinctColours(img) < 3 {
		t.Errorf("PNG %v with %d colours", b, distinctColours(img))
	}
	svg, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "momentum_error", "energy", "iterations", "contacts", "<path"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestPlotErrors(t *testing.T) {
	dir := recordClutter(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--y", "nonsense", "--out", "x.png"}, `--y "nonsense": record: steps.csv has no column "nonsense"`},
		{[]string{"--y", "status", "--out", "x.png"}, `--y "status": the column has no plottable values`},
		{[]string{"--out", "x.pdf"}, `--out "x.pdf": want a .png or .svg file`},
	} {
		code, _, errs := runCLI(append([]string{"plot", dir}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, errs, c.want)
		}
	}
}
