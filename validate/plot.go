package validate

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// series is one curve of a plot.
type series struct {
	name   string
	x, y   []float64
	dashed bool // reference lines (closed forms, bounds)
}

// axes describes a plot's labels and scales.
type axes struct {
	title, x, y string
	logX, logY  bool
	falling     bool // the curves fall to the right: legend at the top right
}

// palette colours the curves in order.
var palette = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 214, G: 39, B: 40, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255}, color.RGBA{R: 148, G: 103, B: 189, A: 255},
	color.RGBA{R: 255, G: 127, B: 14, A: 255}, color.RGBA{R: 127, G: 127, B: 127, A: 255},
}

// savePlot draws the series as lines with points into ctx.OutDir/name.png
// and returns the file name relative to the report (nil when ctx has no
// output directory).
func savePlot(ctx *Context, name string, a axes, ss ...series) ([]string, error) {
	if ctx.OutDir == "" {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = a.title, a.x, a.y
	if a.logX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: 1}
	}
	if a.logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: 1}
	}
	p.Legend.Top = a.falling || !(a.logX && a.logY) // order plots rise to the right: their lower right is free
	for i, s := range ss {
		pts := make(plotter.XYs, len(s.x))
		for j := range s.x {
			pts[j] = plotter.XY{X: s.x[j], Y: s.y[j]}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("validate: plot %s: %w", name, err)
		}
		l.Color = palette[i%len(palette)]
		if s.dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	p.Add(plotter.NewGrid())
	if err := os.MkdirAll(filepath.Join(ctx.OutDir, "validation"), 0o755); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	file := filepath.Join("validation", name+".png")
	if err := p.Save(16*vg.Centimeter, 9*vg.Centimeter, filepath.Join(ctx.OutDir, file)); err != nil {
		return nil, fmt.Errorf("validate: plot %s: %w", name, err)
	}
	return []string{file}, nil
}

// orderRefs returns dashed reference lines of slopes 1 and 2 through the
// last point of s (the largest step), as in SAP Fig. 7.
func orderRefs(s series) []series {
	n := len(s.x) - 1
	var out []series
	for _, p := range []float64{1, 2} {
		y := make([]float64, len(s.x))
		for i, x := range s.x {
			y[i] = s.y[n] * math.Pow(x/s.x[n], p)
		}
		out = append(out, series{name: fmt.Sprintf("order %g", p), x: s.x, y: y, dashed: true})
	}
	return out
}
