package main

import (
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

	"github.com/stiction-sim/stiction/sweep"
)

// isSweepTable reports whether path is a sweep's output directory or its
// results.csv.
func isSweepTable(path string) bool {
	if filepath.Base(path) == sweep.TableCSV {
		return true
	}
	_, err := os.Stat(filepath.Join(path, sweep.TableCSV))
	return err == nil
}

// cmdPlotSweep plots statistics of a sweep table against a parameter.
func cmdPlotSweep(path, x, ys string, fs *flag.FlagSet, out string, stdout, stderr io.Writer) int {
	tab, err := sweep.ReadTable(path)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	if x == "" {
		x = tab.Columns[2] // job, repeat, then the first swept path
	}
	yset := false
	fs.Visit(func(f *flag.Flag) { yset = yset || f.Name == "y" })
	if !yset {
		ys = "penetration_max"
	}
	if err := plotSweep(tab, x, strings.Split(ys, ","), out); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s\n", out)
	return 0
}

// plotSweep draws one scatter panel per statistic against column x.
func plotSweep(tab *sweep.Table, x string, ys []string, path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".png" && ext != ".svg" {
		return fmt.Errorf("plot: --out %q: want a .png or .svg file", path)
	}
	xs, err := tab.Column(x)
	if err != nil {
		return fmt.Errorf("plot: --x: %w", err)
	}
	var rows [][]*plot.Plot
	for _, name := range ys {
		name = strings.TrimSpace(name)
		y, err := tab.Column(name)
		if err != nil {
			return fmt.Errorf("plot: --y: %w", err)
		}
		var pts plotter.XYs
		for i := range y {
			if finiteAll(xs[i], y[i]) {
				pts = append(pts, plotter.XY{X: xs[i], Y: y[i]})
			}
		}
		if len(pts) == 0 {
			return fmt.Errorf("plot: no job has finite numbers in both %q and %q", x, name)
		}
		p := plot.New()
		p.X.Label.Text, p.Y.Label.Text = x, name
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		p.Add(sc, plotter.NewGrid())
		rows = append(rows, []*plot.Plot{p})
	}
	return drawPanels(rows, 6*vg.Centimeter, path)
}

func finiteAll(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
