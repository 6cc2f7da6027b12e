package validate

import (
	"fmt"
	"math"
	"time"

	"github.com/stiction-sim/stiction/internal/experiment"
	"github.com/stiction-sim/stiction/solver/sap"
)

// Drumwright's claims ("An Unconditionally Stable First-Order Constraint
// Solver for Multibody Systems"), measured by running the engine with his
// solver (solver/drumwright) on his scenes (drumwright_scenes.go,
// drumwright_foundation.go). docs/DRUMWRIGHT.md describes the method.

const dwPaper = "Drumwright"

func init() {
	Register(Claim{ID: "drumwright/fig4-stiff-pendulum", Group: "Drumwright", Quick: true, Run: dwFig4})
	Register(Claim{ID: "drumwright/fig6-limit", Group: "Drumwright", Quick: true, Run: dwFig6})
	Register(Claim{ID: "drumwright/fig9-incline", Group: "Drumwright", Quick: true, Run: dwFig9})
	Register(Claim{ID: "drumwright/table2-foundation", Group: "Drumwright", Quick: true, Run: dwTable2Claim})
	Register(Claim{ID: "drumwright/fig10-sphere-stacks", Group: "Drumwright", Quick: true, Run: dwFig10})
}

// dwFig4: the stiff pendulum's deviation is O(h²) and bounded at h = 0.1 s.
func dwFig4(ctx *Context) ([]Row, error) {
	hs := []float64{0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001}
	if ctx.Quick {
		hs = []float64{0.1, 0.01, 0.001}
	}
	var devs []float64
	worstGain := 0.0
	for _, h := range hs {
		dev, gain, err := stiffPendulumDeviation(h)
		if err != nil {
			return nil, fmt.Errorf("h = %g: %w", h, err)
		}
		devs = append(devs, dev)
		worstGain = math.Max(worstGain, gain)
	}
	slope := dwLogSlope(hs, devs)
	src := dwPaper + " Fig. 4, §4.2 eq. 61–62"
	return []Row{
		{Claim: "stiff pendulum (k = 1e15): constraint deviation is O(h²)", Source: src, Expected: "slope 2",
			Measured: fmt.Sprintf("slope %.3f over h = %g…%g", slope, hs[len(hs)-1], hs[0]), Tolerance: "≥ 1.8", Pass: slope >= 1.8},
		{Claim: "stiff pendulum stable at h = 0.1 s", Source: src, Expected: "deviation < 0.1 L, energy gain < 0.1 m g L",
			Measured: fmt.Sprintf("deviation %.3g m, max energy gain %.3g J", devs[0], worstGain), Tolerance: "bounds",
			Pass: devs[0] < 0.1 && worstGain < 0.1*dwGravity},
	}, nil
}

// dwFig6: the range-of-motion limit is stable and dead at every h.
func dwFig6(ctx *Context) ([]Row, error) {
	hs := []float64{0.1, 0.01, 1e-3, 1e-4}
	if ctx.Quick {
		hs = hs[:3]
	}
	var rows []Row
	for _, h := range hs {
		rise, pen, bound, swing, err := limitPendulum(h)
		if err != nil {
			return nil, fmt.Errorf("h = %g: %w", h, err)
		}
		rows = append(rows, Row{Claim: fmt.Sprintf("limit k = 1e12, b = 0, h = %g: stable, impact dead", h), Source: dwPaper + " Fig. 6, §5.3 eq. 83–85",
			Expected:  "no energy rise; penetration ≤ ω_max h; no rebound",
			Measured:  fmt.Sprintf("rise %.2g J, penetration %.2g rad (bound %.2g), swing energy %.2g m g L", rise, pen, bound, swing),
			Tolerance: "rise ≤ 0.1 m g L (1 + 10h), swing ≤ 0.05", Pass: rise <= 0.1*dwGravity*(1+10*h) && pen <= bound && swing <= 0.05})
	}
	return rows, nil
}

// dwFig9: the box on the 15° incline slides the closed-form distance.
func dwFig9(*Context) ([]Row, error) {
	th := 15 * math.Pi / 180
	var rows []Row
	for _, mu := range []float64{0, 0.125, 0.25, 0.375} {
		d, err := inclineSlide(mu)
		if err != nil {
			return nil, fmt.Errorf("μ = %g: %w", mu, err)
		}
		a := dwGravity * (math.Sin(th) - mu*math.Cos(th))
		r := Row{Claim: fmt.Sprintf("box on 15° incline, μ = %g: distance in 1 s", mu), Source: dwPaper + " Fig. 9, §6.4"}
		if a < 0 {
			r.Expected, r.Measured, r.Tolerance, r.Pass = "0 m (sticks)", fmt.Sprintf("%.3g m", d), "< 1e-4 m", d < 1e-4
		} else {
			want := 0.5 * a
			r.Expected, r.Measured, r.Tolerance = fmt.Sprintf("½ g (sin θ − μ cos θ) t² = %.4f m", want), fmt.Sprintf("%.4f m", d), "2%"
			r.Pass = math.Abs(d-want) <= 0.02*want
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// dwTable2Claim: the cube on the elastic foundation within the paper's own
// errors (Table 2), with Table 1's timings as informational rows.
func dwTable2Claim(ctx *Context) ([]Row, error) {
	var rows, timing []Row
	for _, c := range experiment.Table2 {
		if ctx.Quick && (c.N > 10 || c.E > 1e7 || c.Load > 5) {
			continue // quick: the 5 N, 100-element, E = 1e7 row (its reference takes ~2 s)
		}
		x, wall, err := experiment.FoundationRun(c, 0.01, nil)
		if err != nil {
			return nil, fmt.Errorf("load %g N, %d elements, E = %g: %w", c.Load, c.N*c.N, c.E, err)
		}
		ref, err := experiment.FoundationTruth(c)
		if err != nil {
			return nil, fmt.Errorf("reference, load %g N, %d elements, E = %g: %w", c.Load, c.N*c.N, c.E, err)
		}
		abs, rel := experiment.PoseError(x, ref)
		name := fmt.Sprintf("cube on elastic foundation, %g N, %d elements, E = %g", c.Load, c.N*c.N, c.E)
		rows = append(rows, Row{Claim: name + ": error after 1 s at h = 0.01", Source: dwPaper + " Table 2, §5.5",
			Expected: fmt.Sprintf("abs %.3g, rel %.3g", c.PaperAbs, c.PaperRel), Measured: fmt.Sprintf("abs %.3g, rel %.3g", abs, rel),
			Tolerance: "≤ the paper's", Pass: abs <= c.PaperAbs && rel <= c.PaperRel})
		_, sapWall, err := experiment.FoundationRun(c, 0.01, sap.New(sap.DefaultParams()))
		if err != nil {
			return nil, err
		}
		timing = append(timing, Row{Claim: name + ": time for 1 s (informational)", Source: dwPaper + " Table 1",
			Expected: fmt.Sprintf("%.3g s (MATLAB)", c.PaperTime), Measured: fmt.Sprintf("Drumwright %v, SAP %v", wall.Round(time.Millisecond), sapWall.Round(time.Millisecond)),
			Tolerance: "none", Pass: true, Note: "timings depend on the machine; not a pass criterion"})
	}
	return append(rows, timing...), nil
}

// dwFig10: stacks of stiff spheres stand; their timings are informational.
func dwFig10(ctx *Context) ([]Row, error) {
	ns := []int{10, 30, 100}
	if ctx.Quick {
		ns = ns[:2]
	}
	var rows []Row
	for _, n := range ns {
		off, dz, speed, wall, err := sphereStack(n)
		if err != nil {
			return nil, fmt.Errorf("%d spheres: %w", n, err)
		}
		rows = append(rows, Row{Claim: fmt.Sprintf("stack of %d spheres (E = 1e11) stands after 500 steps of 10 ms", n), Source: dwPaper + " Fig. 10, §6.5",
			Expected: "stands", Measured: fmt.Sprintf("off-axis %.2g m, height error %.2g m, speed %.2g m/s; %v", off, dz, speed, wall.Round(time.Millisecond)),
			Tolerance: "1 mm, 1 mm, 1 mm/s", Pass: off <= 1e-3 && dz <= 1e-3 && speed <= 1e-3})
	}
	return rows, nil
}

// dwLogSlope returns the least-squares slope of log y against log x.
func dwLogSlope(x, y []float64) float64 {
	var sx, sy, sxx, sxy float64
	n := float64(len(x))
	for i := range x {
		lx, ly := math.Log(x[i]), math.Log(y[i])
		sx, sy, sxx, sxy = sx+lx, sy+ly, sxx+lx*lx, sxy+lx*ly
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}
