package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/stiction-sim/stiction/record"
)

// cmdPlot plots columns of a run's steps.csv against time, or statistics of
// a sweep's table against a parameter (plotsweep.go).
func cmdPlot(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ys := fs.String("y", "energy,iterations,momentum_error", "comma-separated steps.csv columns, or energy (kinetic + potential)")
	out := fs.String("out", "", "output file, .png or .svg")
	x := fs.String("x", "", "sweep tables: the parameter column on the x axis (default: the first swept path)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *out == "" {
		fmt.Fprintf(stderr, "stiction plot: want one run directory and --out FILE.png|FILE.svg\n%s", usage)
		return 2
	}
	if isSweepTable(pos[0]) {
		return cmdPlotSweep(pos[0], *x, *ys, fs, *out, stdout, stderr)
	}
	run, err := readRun(pos[0], stderr)
	if err == nil {
		err = plotRun(run, strings.Split(*ys, ","), *out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return 0
}

// series returns the named column of run r: a steps.csv column, or energy.
func series(r *record.Run, name string) ([]float64, error) {
	if name != "energy" {
		return r.Column(name)
	}
	k, err1 := r.Column("kinetic_energy")
	p, err2 := r.Column("potential_energy")
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	for i := range k {
		k[i] += p[i]
	}
	return k, nil
}

// plotRun draws one panel per column, stacked, sharing the time axis, and
// writes it to path (.png or .svg).
func plotRun(r *record.Run, names []string, path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".png" && ext != ".svg" {
		return fmt.Errorf("plot: --out %q: want a .png or .svg file", path)
	}
	t, err := r.Column("t")
	if err != nil {
		return err
	}
	var rows [][]*plot.Plot
	for _, name := range names {
		p, err := panel(r, t, strings.TrimSpace(name))
		if err != nil {
			return err
		}
		rows = append(rows, []*plot.Plot{p})
	}
	return drawPanels(rows, 5*vg.Centimeter, path)
}

// drawPanels draws one column of panels, each h high, to path (.png or
// .svg).
func drawPanels(rows [][]*plot.Plot, h vg.Length, path string) error {
	w, h := 16*vg.Centimeter, vg.Length(len(rows))*h
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if strings.ToLower(filepath.Ext(path)) == ".svg" {
		c = vgsvg.New(w, h)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	}
	tiles := draw.Tiles{Rows: len(rows), Cols: 1, PadY: vg.Millimeter, PadTop: 2 * vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: 3 * vg.Millimeter}
	canvases := plot.Align(rows, tiles, draw.New(c))
	for i := range rows {
		rows[i][0].Draw(canvases[i][0])
	}
	return writePlot(path, c)
}

// panel returns the plot of one column against t; columns named *_error
// use a log scale and drop values ≤ 0.
func panel(r *record.Run, t []float64, name string) (*plot.Plot, error) {
	y, err := series(r, name)
	if err != nil {
		return nil, fmt.Errorf("plot: --y %q: %w", name, err)
	}
	logY := strings.HasSuffix(name, "_error")
	var pts plotter.XYs
	for i := range y {
		if !math.IsNaN(y[i]) && !math.IsInf(y[i], 0) && (!logY || y[i] > 0) {
			pts = append(pts, plotter.XY{X: t[i], Y: y[i]})
		}
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("plot: --y %q: the column has no plottable values", name)
	}
	p := plot.New()
	p.Y.Label.Text = name
	p.X.Label.Text = "t (s)"
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: 1}
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("plot: --y %q: %w", name, err)
	}
	p.Add(line, plotter.NewGrid())
	return p, nil
}

func writePlot(path string, c io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	_, err = c.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	return nil
}
