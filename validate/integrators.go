package validate

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/internal/experiment"
	"github.com/stiction-sim/stiction/sim"
)

// The integrator claims: the mechanics notes' §0.9.3 trapezoidal rule and
// §0.9.4 Bridson–Marino scheme against the midpoint rule (issue 15's
// acceptance lines), on the spring-cylinder, a tumbling free body and
// Drumwright's stiff pendulum.
func init() {
	Register(Claim{ID: "integrators/order", Group: "Integrators", Quick: true, Run: integratorOrders})
	Register(Claim{ID: "integrators/energy", Group: "Integrators", Quick: true, Run: integratorEnergy})
	Register(Claim{ID: "integrators/contact", Group: "Integrators", Quick: true, Run: bridsonContact})
	Register(Claim{ID: "integrators/stiff-pendulum", Group: "Integrators", Quick: true, Run: stiffPendulumSchemes})
	Register(Claim{ID: "integrators/stability-limit", Group: "Integrators", Quick: true, Run: stabilityLimit})
}

// orderSteps are the time steps of the order fits (SAP Fig. 7's range).
var orderSteps = []float64{1e-3, 2e-3, 5e-3, 1e-2, 2e-2}

// compared are the schemes the integrator claims set side by side.
var compared = []sim.Scheme{sim.Midpoint, sim.Trapezoidal, sim.BridsonMarino, sim.SymplecticEuler}

// integratorOrders fits the order of each scheme on the frictionless
// spring-cylinder (a linear oscillator) and on a tumbling free body.
func integratorOrders(ctx *Context) ([]Row, error) {
	var rows []Row
	var spring, flight, arm []series
	slopes := map[string][3]float64{}
	for _, sc := range compared {
		errs, slope, err := experiment.Order("spring-cylinder-frictionless", sc.Name, orderSteps, 5)
		if err != nil {
			return nil, err
		}
		ferrs, fslope, err := experiment.FlightOrder(sc, orderSteps, 1, 1e-4)
		if err != nil {
			return nil, err
		}
		aerrs, aslope, err := experiment.SceneOrder("double-pendulum", sc.Name, orderSteps[:4], 1, 1e-4)
		if err != nil {
			return nil, err
		}
		slopes[sc.Name] = [3]float64{slope, fslope, aslope}
		arm = append(arm, series{name: fmt.Sprintf("%s (%.2f)", sc.Name, aslope), x: orderSteps[:4], y: aerrs})
		spring = append(spring, series{name: fmt.Sprintf("%s (%.2f)", sc.Name, slope), x: orderSteps, y: errs})
		flight = append(flight, series{name: fmt.Sprintf("%s (%.2f)", sc.Name, fslope), x: orderSteps, y: ferrs})
	}
	p1, err := savePlot(ctx, "integrators-order-spring", axes{title: "frictionless spring-cylinder, 5 s", x: "δt (s)", y: "L2 error of x (m)", logX: true, logY: true}, append(spring, orderRefs(spring[0])...)...)
	if err != nil {
		return nil, err
	}
	p2, err := savePlot(ctx, "integrators-order-flight", axes{title: "tumbling free body, 1 s", x: "δt (s)", y: "max error of (q, v) at 1 s", logX: true, logY: true}, append(flight, orderRefs(flight[0])...)...)
	if err != nil {
		return nil, err
	}
	p3, err := savePlot(ctx, "integrators-order-double-pendulum", axes{title: "double pendulum, 1 s", x: "δt (s)", y: "max error of (q, v) at 1 s", logX: true, logY: true}, append(arm, orderRefs(arm[0])...)...)
	if err != nil {
		return nil, err
	}
	tr, bm, mp := slopes["trapezoidal"], slopes["bridson-marino"], slopes["midpoint"]
	rows = append(rows,
		Row{Claim: "trapezoidal: second order on a frictionless spring", Source: "notes §0.9.3; issue 15",
			Expected: "fitted slope ≥ 1.8", Measured: fmt.Sprintf("slope %.3f (midpoint %.3f)", tr[0], mp[0]),
			Tolerance: "≥ 1.8", Pass: tr[0] >= 1.8, Plots: p1,
			Note: fmt.Sprintf("L2 error of x(t) against x0 cos ωt over 5 s, δt = %v s. On this linear system the linearized trapezoidal rule is the midpoint rule. Fitted slopes: %s.", orderSteps, slopeList(slopes, 0))},
		Row{Claim: "Bridson–Marino: second order in free flight", Source: "notes §0.9.4; issue 15",
			Expected: "fitted slope ≥ 1.8", Measured: fmt.Sprintf("slope %.3f (midpoint %.3f)", bm[1], mp[1]),
			Tolerance: "≥ 1.8", Pass: bm[1] >= 1.8, Plots: p2,
			Note: fmt.Sprintf("A 2 kg body with principal moments (0.1, 0.2, 0.3) kg·m² thrown spinning under gravity; error of its state at 1 s against the midpoint rule at δt = 1e-4. M̂ includes the gyroscopic ∂C/∂v. The trapezoidal rule as the notes write it (force elements' K and D, M at q0) is first order here: slope %.3f. Fitted slopes: %s.", tr[1], slopeList(slopes, 1))},
		Row{Claim: "Bridson–Marino: second order on an articulated system (double pendulum)", Source: "notes §0.9.4",
			Expected: "fitted slope ≥ 1.8", Measured: fmt.Sprintf("slope %.3f (midpoint %.3f)", bm[2], mp[2]),
			Tolerance: "≥ 1.8", Pass: bm[2] >= 1.8, Plots: p3,
			Note: fmt.Sprintf("The embedded double-pendulum scene released horizontally, state at 1 s against the midpoint rule at δt = 1e-4, δt = %v s: M(q) and the Coriolis terms change along the motion. Fitted slopes: %s.", orderSteps[:4], slopeList(slopes, 2))},
	)
	return rows, nil
}

// slopeList formats the fitted slopes of column i.
func slopeList(s map[string][3]float64, i int) string {
	out := ""
	for _, sc := range compared {
		if out != "" {
			out += ", "
		}
		out += fmt.Sprintf("%s %.3f", sc.Name, s[sc.Name][i])
	}
	return out
}

// integratorEnergy compares the energy of the schemes on the rolling and
// the frictionless spring-cylinder at δt = 0.02 s.
func integratorEnergy(ctx *Context) ([]Row, error) {
	runs := map[string]experiment.CylinderRun{}
	var curves []series
	for _, sc := range compared {
		r, err := experiment.RunCylinder("spring-cylinder", sc.Name, 0.02, 250)
		if err != nil {
			return nil, err
		}
		runs[sc.Name] = r
		if sc != sim.SymplecticEuler {
			curves = append(curves, series{name: sc.Name, x: stepTimes(len(r.Energy), 0.02), y: r.Energy})
		}
	}
	fr, err := experiment.RunCylinder("spring-cylinder-frictionless", "bridson-marino", 0.02, 2500)
	if err != nil {
		return nil, err
	}
	plots, err := savePlot(ctx, "integrators-energy", axes{title: "rolling spring-cylinder, δt = 0.02 s", x: "t (s)", y: "oscillator energy (J)"}, curves...)
	if err != nil {
		return nil, err
	}
	lo, hi := experiment.MinMax(runs["midpoint"].Energy)
	tlo, thi := experiment.MinMax(runs["trapezoidal"].Energy)
	tol := 1e-9 * runs["midpoint"].Energy[0]
	w := experiment.CylinderOmega(false)
	want := w * w * 0.02 * 0.02 / 4
	got := experiment.PeakToPeak(fr.Energy)
	return []Row{
		{Claim: "trapezoidal: energy within the midpoint's band (rolling spring-cylinder)", Source: "notes §0.9.3; SAP Fig. 6; issue 15",
			Expected: fmt.Sprintf("within midpoint's [%.7f, %.7f] J", lo, hi), Measured: fmt.Sprintf("[%.7f, %.7f] J", tlo, thi),
			Tolerance: "1e-9 E0", Pass: tlo >= lo-tol && thi <= hi+tol, Plots: plots,
			Note: fmt.Sprintf("μ = 1, δt = 0.02 s, 5 s. Peak to peak: midpoint %.4f%%, trapezoidal %.4f%%, Bridson–Marino %.4f%%, symplectic Euler %.2f%%.",
				100*experiment.PeakToPeak(runs["midpoint"].Energy), 100*experiment.PeakToPeak(runs["trapezoidal"].Energy),
				100*experiment.PeakToPeak(runs["bridson-marino"].Energy), 100*experiment.PeakToPeak(runs["symplectic-euler"].Energy))},
		{Claim: "Bridson–Marino: Störmer–Verlet energy band on the frictionless spring", Source: "notes §0.9.4",
			Expected: fmt.Sprintf("peak to peak (ωδt)²/4 = %.5g", want), Measured: fmtSig(got, 5),
			Tolerance: "5%", Pass: math.Abs(got-want) <= 0.05*want,
			Note: "50 s at δt = 0.02 s; the modified energy ½(v² + ω²x²(1 − ω²δt²/4)) is conserved, so E oscillates by (ωδt)²/4 and does not drift."},
	}, nil
}

// stepTimes returns 0, dt, …, (n−1) dt.
func stepTimes(n int, dt float64) []float64 {
	t := make([]float64, n)
	for i := range t {
		t[i] = float64(i) * dt
	}
	return t
}

// bridsonContact checks Bridson–Marino with contact: a resting sphere and
// the clutter.
func bridsonContact(ctx *Context) ([]Row, error) {
	r, err := experiment.BridsonResting()
	if err != nil {
		return nil, err
	}
	n := 300
	if ctx.Quick {
		n = 200
	}
	c, err := experiment.Settle("clutter", "bridson-marino", n)
	if err != nil {
		return nil, err
	}
	return []Row{
		{Claim: "Bridson–Marino: resting sphere (drop), contact on the half-step velocity", Source: "notes §0.9.4",
			Expected:  fmt.Sprintf("penetration = symplectic Euler's %.6g m; v_z = −gδt/2 = %.6g m/s", r.PenetrationRef, -r.HalfKick),
			Measured:  fmt.Sprintf("penetration %.6g m; v_z = %.6g m/s", r.Penetration, r.VZ),
			Tolerance: "1e-12 m; 1e-9 m/s",
			Pass:      math.Abs(r.Penetration-r.PenetrationRef) <= 1e-12 && math.Abs(r.VZ+r.HalfKick) <= 1e-9,
			Note:      "The second half kick acts after the contact solve, so a body at rest leaves each step with −g δt/2, which the next step's solve removes."},
		{Claim: "Bridson–Marino: stable with contact (clutter)", Source: "issue 15",
			Expected:  "every solve converges; kinetic energy over the last third < 1 J",
			Measured:  fmt.Sprintf("%d steps converged; max KE %.3g J", c.Steps, c.LateKE),
			Tolerance: "—", Pass: c.Steps == n && c.LateKE < 1},
	}, nil
}

// stiffPendulumSchemes runs Drumwright's stiff pendulum (k = 1e15) with each
// scheme over h = 1e-3 … 0.1 and reports stability and the O(h²)
// deviation. The trapezoidal rule makes no stability claim: its energy
// rise is measured and reported in the note.
func stiffPendulumSchemes(ctx *Context) ([]Row, error) {
	hs := []float64{0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001}
	var rows []Row
	var curves []series
	trap := ""
	for _, sc := range compared {
		var devs, gains []float64
		for _, h := range hs {
			r, err := experiment.StiffPendulum(sc, h, 1, nil)
			if err != nil {
				return nil, err
			}
			devs, gains = append(devs, r.Deviation), append(gains, r.EnergyGain)
		}
		_, worst := experiment.MinMax(gains)
		slope := experiment.LogSlope(hs, devs)
		curves = append(curves, series{name: fmt.Sprintf("%s (%.2f)", sc.Name, slope), x: hs, y: devs})
		if sc == sim.Trapezoidal {
			trap = fmt.Sprintf("The trapezoidal rule is not stable here: over 1 s its energy rises by %.3g J at h = 0.1 and %.3g J at h = 0.001 (deviation slope %.2f). "+
				"Its constraint rows are SAP's θq = 0 form, which assumes q1 = q0 + δt v, while the rule moves q by δt (v0 + v)/2.", gains[0], gains[len(gains)-1], slope)
			continue
		}
		rows = append(rows, Row{Claim: "stiff pendulum (k = 1e15), " + sc.Name + ": stable for h ≤ 0.1 s", Source: "Drumwright Fig. 4; issue 15",
			Expected:  "deviation < 0.1 L and energy gain < 0.1 m g L at every h",
			Measured:  fmt.Sprintf("deviation %.3g m at h = 0.1, slope %.2f; max energy gain %.3g J", devs[0], slope, worst),
			Tolerance: "—", Pass: worst < 0.1*9.81 && devs[0] < 0.1})
	}
	plots, err := savePlot(ctx, "integrators-stiff-pendulum", axes{title: "stiff pendulum, 1 s", x: "h (s)", y: "max pivot deviation (m)", logX: true, logY: true}, curves...)
	if err != nil {
		return nil, err
	}
	rows[0].Plots = plots
	rows[0].Note = "A 1 kg bob 1 m from a ball constraint of k = 1e15 N/m, released horizontally, 1 s, h = 0.1 … 0.001 s. " + trap
	return rows, nil
}

// stabilityLimit runs the frictionless spring-cylinder for 20 s at
// ωδt = 1.8 and 2.2: Bridson–Marino (the Störmer–Verlet method on this
// oscillator) is stable only for ωδt < 2, while the midpoint and
// trapezoidal rules are A-stable.
func stabilityLimit(ctx *Context) ([]Row, error) {
	w := experiment.CylinderOmega(false)
	peak := map[string][2]float64{}
	for i, f := range []float64{0.9, 1.1} {
		dt := f * 2 / w
		for _, sc := range []string{"midpoint", "trapezoidal", "bridson-marino"} {
			r, err := experiment.RunCylinder("spring-cylinder-frictionless", sc, dt, int(math.Round(20/dt)))
			if err != nil {
				return nil, err
			}
			_, hi := experiment.MinMax(r.Energy)
			p := peak[sc]
			p[i] = hi / r.Energy[0]
			peak[sc] = p
		}
	}
	bm := peak["bridson-marino"]
	var rows []Row
	rows = append(rows, Row{Claim: "Bridson–Marino: stable only for ωδt < 2 (frictionless spring-cylinder, 20 s)", Source: "notes §0.9.4 (Störmer–Verlet)",
		Expected: "max E/E0 < 2 at ωδt = 1.8; > 1e3 at ωδt = 2.2", Measured: fmt.Sprintf("%.3g at 1.8; %.3g at 2.2", bm[0], bm[1]),
		Tolerance: "—", Pass: bm[0] < 2 && bm[1] > 1e3,
		Note: "With Bridson–Marino E includes the vertical kinetic energy ½ m (g δt/2)² that a body on contact carries out of each step (the second half kick), large at these steps; the bound 2 E0 allows for it."})
	for _, sc := range []string{"midpoint", "trapezoidal"} {
		p := peak[sc]
		rows = append(rows, Row{Claim: sc + ": stable beyond ωδt = 2 (frictionless spring-cylinder, 20 s)", Source: "SAP §II-C; notes §0.9.3 (A-stable)",
			Expected: "max E/E0 ≤ 1 at ωδt = 1.8 and 2.2", Measured: fmt.Sprintf("%.6f; %.6f", p[0], p[1]), Tolerance: "1e-9", Pass: p[0] <= 1+1e-9 && p[1] <= 1+1e-9})
	}
	return rows, nil
}
