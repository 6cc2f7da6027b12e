package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
)

// benchOptions are the flags of "stiction bench".
type benchOptions struct {
	ns         []int
	walls      []bool
	copies     bool // layout "copies": scene.ClutterCopies(N/40) instead of ClutterN
	linear     []sap.Linear
	denseMax   int
	steps      int
	stepsLarge int
	large      int
	workers    int
	out        string
	quiet      bool
	solver     string // --solver: a registered solver; the Newton-system paths apply to "sap" only
	approx     string // --approximation: contact.approximation, "" for the scene's
}

// islandsPath marks the island solver (over sparse SAP) in benchOptions.linear.
const islandsPath sap.Linear = -1

// pathName names a solver of the study: SAP's Newton-system path, or the
// registered solver's name (with "-islands" under the island solver).
func pathName(solverName string, l sap.Linear) string {
	if solverName != "" && solverName != sap.Name {
		if l == islandsPath {
			return solverName + "-islands"
		}
		return solverName
	}
	if l == islandsPath {
		return "islands"
	}
	return l.String()
}

// benchRow is one line of bench.csv: one run of one configuration.
type benchRow struct {
	Walls     bool
	Copies    bool // scene.ClutterCopies(N/40) (weak-scaling control)
	N         int
	Solver    string // registered solver name
	Linear    sap.Linear
	Workers   int
	Steps     int
	MsPerStep float64 // mean wall time per step over all steps
	MsLast    float64 // mean wall time per step over the last third
	MeanIter  float64 // mean SAP iterations per step
	MeanIterL float64 // over the last third
	MaxIter   int
	MeanCont  float64 // mean contacts per step
	// WorkLast is the mean over the last third of the steps of Σ Newton
	// iterations × contacts over the solves of a step (one solve for
	// sparse and dense, one per island for islands): the solver's work in
	// contact-iterations, whose ratio to the contacts is the solver work
	// per contact.
	WorkLast   float64
	ContLast   float64 // mean contacts per step over the last third
	LastCont   int     // contacts at the last step
	Failed     int     // steps whose solve did not converge
	MaxEm      float64 // largest momentum error e_m
	Analyses   int     // symbolic analyses (sparse path without islands)
	Islands    int     // islands at the last step (island solver)
	WallSecond float64 // total wall time of the run
}

// cmdBench runs the clutter scaling study of SAP §VI-C1 (Fig. 11–12).
func cmdBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	nList := fs.String("n", "10,20,40,80,160,320,640", "comma-separated numbers of bodies")
	wallsList := fs.String("walls", "walls,nowalls", "comma-separated: walls, nowalls")
	linList := fs.String("linear", "sparse,dense,islands", "comma-separated solvers: sparse, dense, auto (SAP's Newton-system paths), islands (island solver over sparse SAP)")
	layout := fs.String("layout", "grid", "grid: scene.ClutterN(N, walls), columns of ten on a grid; copies: scene.ClutterCopies(N/40), N/40 far-apart copies of clutter-nowalls (N a multiple of 40, no walls)")
	var o benchOptions
	fs.IntVar(&o.denseMax, "dense-max", 320, "skip the dense path above this many bodies")
	fs.IntVar(&o.steps, "steps", 1000, "time steps (δt = 10 ms) per run")
	fs.IntVar(&o.stepsLarge, "dense-steps-large", 200, "time steps of dense runs from --large bodies on")
	fs.IntVar(&o.large, "large", 320, "number of bodies from which --dense-steps-large applies")
	fs.IntVar(&o.workers, "workers", 1, "workers of the islands solver")
	fs.StringVar(&o.out, "out", "bench-out", "directory for bench.csv, bench.png and bench.svg")
	fs.BoolVar(&o.quiet, "quiet", false, "no per-run lines")
	fs.StringVar(&o.solver, "solver", sap.Name, "contact solver: "+strings.Join(solver.Names(), ", ")+"; --linear's sparse, dense and auto paths are SAP's (another solver runs once for them), islands wraps any solver")
	fs.StringVar(&o.approx, "approximation", "", "contact approximation (sap, lagged, similar; default the scene's, lagged); the interior-point solver needs sap")
	peersOn := fs.Bool("peers", false, "run the peer scenes (clutter-40, clutter-160, stack-100-spheres) with the default settings and print s/s, iterations, penetration, final speed and e_m beside the peers' figures; writes DIR/peers.csv")
	peersDir := fs.String("peers-dir", "", "with --peers: read the scenes and README from this directory (laid out as internal/peers/scenes) instead of the copies in the binary")
	peerWorkers := fs.Int("peer-workers", 0, "with --peers: island-solver workers (0: the scenes' default, one)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "stiction bench: unexpected arguments %v\n%s", pos, usage)
		return 2
	}
	if *peersOn {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			fmt.Fprintf(stderr, "stiction: %v\n", err)
			return 2
		}
		if err := runPeers(*peersDir, *peerWorkers, o.out, stdout); err != nil {
			fmt.Fprintf(stderr, "stiction bench: %v\n", err)
			return 1
		}
		return 0
	}
	if err := o.parseLists(*nList, *wallsList, *linList, *layout); err != nil {
		fmt.Fprintf(stderr, "stiction bench: %v\n", err)
		return 2
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	rows, err := runBench(o, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	if err := writeBenchCSV(filepath.Join(o.out, "bench.csv"), rows); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := plotBench(rows, filepath.Join(o.out, "bench"+ext)); err != nil {
			fmt.Fprintf(stderr, "stiction: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "wrote %s/bench.csv, bench.png, bench.svg\n", o.out)
	return 0
}

// parseLists parses the list flags.
func (o *benchOptions) parseLists(ns, walls, lin, layout string) error {
	switch layout {
	case "grid":
	case "copies":
		o.copies = true
	default:
		return fmt.Errorf("--layout: %q: want grid or copies", layout)
	}
	for _, f := range strings.Split(ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("--n: %q is not a positive integer", f)
		}
		o.ns = append(o.ns, n)
	}
	for _, f := range strings.Split(walls, ",") {
		switch strings.TrimSpace(f) {
		case "walls":
			o.walls = append(o.walls, true)
		case "nowalls":
			o.walls = append(o.walls, false)
		default:
			return fmt.Errorf("--walls: %q: want walls or nowalls", f)
		}
	}
	for _, f := range strings.Split(lin, ",") {
		switch strings.TrimSpace(f) {
		case "sparse":
			o.linear = append(o.linear, sap.SparseLinear)
		case "dense":
			o.linear = append(o.linear, sap.DenseLinear)
		case "auto":
			o.linear = append(o.linear, sap.AutoLinear)
		case "islands":
			o.linear = append(o.linear, islandsPath)
		default:
			return fmt.Errorf("--linear: %q: want sparse, dense, auto or islands", f)
		}
	}
	if !solver.Registered(o.solver) {
		return fmt.Errorf("--solver %q: want one of %s", o.solver, strings.Join(solver.Names(), ", "))
	}
	if o.solver != sap.Name { // the Newton-system paths are SAP's: run the solver once, and under islands if asked
		mono := slices.ContainsFunc(o.linear, func(l sap.Linear) bool { return l != islandsPath })
		isl := slices.Contains(o.linear, islandsPath)
		o.linear = o.linear[:0]
		if mono {
			o.linear = append(o.linear, sap.AutoLinear)
		}
		if isl {
			o.linear = append(o.linear, islandsPath)
		}
	}
	if o.steps < 1 || o.stepsLarge < 1 {
		return errors.New("--steps and --dense-steps-large must be positive")
	}
	if o.copies {
		for _, n := range o.ns {
			if n%40 != 0 {
				return fmt.Errorf("--n: %d: --layout copies needs multiples of 40", n)
			}
		}
		if slices.Contains(o.walls, true) {
			return errors.New("--layout copies has no walled variant: use --walls nowalls")
		}
	}
	return nil
}

// runBench runs every configuration.
func runBench(o benchOptions, stdout io.Writer) ([]benchRow, error) {
	var rows []benchRow
	if !o.quiet {
		fmt.Fprintf(stdout, "%-8s %5s %-7s %6s %10s %10s %7s %7s %5s %9s %7s %7s\n",
			"walls", "n", "solver", "steps", "ms/step", "ms/last", "iter", "iter_l", "max", "contacts", "failed", "work_l")
	}
	for _, walls := range o.walls {
		for _, n := range o.ns {
			for _, lin := range o.linear {
				if lin == sap.DenseLinear && n > o.denseMax {
					continue
				}
				steps := o.steps
				if n >= o.large && lin == sap.DenseLinear {
					steps = o.stepsLarge
				}
				workers := 0
				if lin == islandsPath {
					workers = max(o.workers, 1)
				}
				r, err := benchOne(o.solver, o.approx, walls, o.copies, n, lin, steps, workers)
				if err != nil {
					return rows, err
				}
				rows = append(rows, r)
				if !o.quiet {
					w := "nowalls"
					switch {
					case walls:
						w = "walls"
					case o.copies:
						w = "copies"
					}
					fmt.Fprintf(stdout, "%-8s %5d %-7s %6d %10.3f %10.3f %7.2f %7.2f %5d %9.1f %7d %7.3f\n",
						w, n, pathName(o.solver, lin), steps, r.MsPerStep, r.MsLast, r.MeanIter, r.MeanIterL, r.MaxIter, r.MeanCont, r.Failed, r.WorkLast/max(r.ContLast, 1))
				}
			}
		}
	}
	return rows, nil
}

// benchOne runs steps steps of ClutterN(n, walls), or of ClutterCopies(n/40)
// with copies, with the given path.
func benchOne(solverName, approx string, walls, copies bool, n int, lin sap.Linear, steps, workers int) (benchRow, error) {
	sets := []string{"duration=" + strconv.FormatFloat(float64(steps)*0.01, 'g', -1, 64)}
	if solverName != "" {
		sets = append(sets, "solver.type="+solverName)
	}
	if approx != "" {
		sets = append(sets, "contact.approximation="+approx)
	}
	var sc *scene.Scene
	var err error
	if copies {
		sc, err = scene.LoadClutterCopies(n/40, sets)
	} else {
		sc, err = scene.LoadClutterN(n, walls, sets)
	}
	if err != nil {
		return benchRow{}, err
	}
	b, err := scene.Build(sc)
	if err != nil {
		return benchRow{}, err
	}
	if solverName == "" || solverName == sap.Name {
		err = setSolver(b, lin, workers)
	} else {
		err = buildStack(b, workers)
	}
	if err != nil {
		return benchRow{}, err
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return benchRow{}, err
	}
	if is, ok := b.Config.Solver.(*island.Solver); ok {
		defer is.Close()
	}
	r := benchRow{Walls: walls, Copies: copies, N: n, Solver: solverName, Linear: lin, Workers: workers, Steps: steps}
	lastFrom := steps - steps/3
	var total, last time.Duration
	iters, itersLast, contacts, workLast, contLast := 0, 0, 0, 0, 0
	for i := range steps {
		t0 := time.Now()
		st, err := s.Step()
		dt := time.Since(t0)
		if err != nil {
			return r, err
		}
		total += dt
		iters += st.Iterations
		contacts += st.Contacts
		if i >= lastFrom {
			last += dt
			itersLast += st.Iterations
			workLast += solverWork(b.Config.Solver, st)
			contLast += st.Contacts
		}
		r.MaxIter = max(r.MaxIter, st.Iterations)
		r.MaxEm = max(r.MaxEm, st.MomentumError)
		r.LastCont = st.Contacts
		if st.Status != solver.Converged {
			r.Failed++
		}
	}
	nl := float64(steps - lastFrom)
	r.WallSecond = total.Seconds()
	r.MsPerStep = total.Seconds() * 1e3 / float64(steps)
	r.MsLast = last.Seconds() * 1e3 / nl
	r.MeanIter = float64(iters) / float64(steps)
	r.MeanIterL = float64(itersLast) / nl
	r.MeanCont = float64(contacts) / float64(steps)
	r.WorkLast = float64(workLast) / nl
	r.ContLast = float64(contLast) / nl
	switch sv := b.Config.Solver.(type) {
	case *sap.Solver:
		r.Analyses, _ = sv.SymbolicStats()
	case *solver.LaggedRefiner:
		if in, ok := sv.Inner.(*sap.Solver); ok {
			r.Analyses, _ = in.SymbolicStats()
		}
	case *island.Solver:
		r.Islands = sv.Islands()
	}
	return r, nil
}

// solverWork returns Σ Newton iterations × contacts over the solves of the
// step just taken: the islands of an island solver, or the one monolithic
// solve.
func solverWork(sv solver.Solver, st sim.StepStats) int {
	is, ok := sv.(*island.Solver)
	if !ok {
		return st.Iterations * st.Contacts
	}
	w := 0
	for k := range is.Islands() {
		_, nc, ist := is.Island(k)
		w += ist.Iterations * nc
	}
	return w
}

// setSolver makes the scene's solver SAP on the Newton-system path lin
// (setSAP) in the stack with the given workers (buildStack).
func setSolver(b *scene.Built, lin sap.Linear, workers int) error {
	setSAP(b, lin)
	return buildStack(b, workers)
}

// buildStack builds the scene's solver stack (solver/stack), with an island
// solver of the given workers when workers > 0.
func buildStack(b *scene.Built, workers int) error {
	b.Stack.Workers = workers
	sv, err := b.Stack.Build()
	if err != nil {
		return err
	}
	b.Config.Solver = sv
	return nil
}

// setSAP makes the scene's solver stack solve with SAP on the
// Newton-system path lin (sparse for islandsPath), keeping the scene's
// other SAP parameters and its refinement of Lagged contacts (inside each
// island with the island solver).
func setSAP(b *scene.Built, lin sap.Linear) {
	prm := sap.DefaultParams()
	if s, ok := b.Stack.Solver().(*sap.Solver); ok {
		prm = s.Params()
	}
	prm.Linear = lin
	if lin == islandsPath {
		prm.Linear = sap.SparseLinear
	}
	b.Stack.Solver = func() solver.Solver { return sap.New(prm) }
}

// writeBenchCSV writes the rows.
func writeBenchCSV(path string, rows []benchRow) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write([]string{"layout", "walls", "n", "solver", "workers", "steps", "ms_per_step", "ms_per_step_last_third",
		"mean_iterations", "mean_iterations_last_third", "max_iterations", "mean_contacts", "final_contacts",
		"failed_steps", "max_momentum_error", "symbolic_analyses", "islands_final", "wall_s",
		"contacts_last_third", "contact_iterations_last_third"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, r := range rows {
		layout := "grid"
		if r.Copies {
			layout = "copies"
		}
		w.Write([]string{layout, strconv.FormatBool(r.Walls), strconv.Itoa(r.N), pathName(r.Solver, r.Linear), strconv.Itoa(r.Workers),
			strconv.Itoa(r.Steps), g(r.MsPerStep), g(r.MsLast), g(r.MeanIter), g(r.MeanIterL), strconv.Itoa(r.MaxIter),
			g(r.MeanCont), strconv.Itoa(r.LastCont), strconv.Itoa(r.Failed), g(r.MaxEm), strconv.Itoa(r.Analyses),
			strconv.Itoa(r.Islands), g(r.WallSecond), g(r.ContLast), g(r.WorkLast)})
	}
	w.Flush()
	err = w.Error()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// plotBench draws time per step and iterations per step against N (log–log
// and log–linear), one line per (walls, path), and writes path (.png/.svg).
func plotBench(rows []benchRow, path string) error {
	tp, ip := plot.New(), plot.New()
	tp.Title.Text, ip.Title.Text = "time per step", "SAP iterations per step"
	tp.X.Label.Text, ip.X.Label.Text = "bodies N", "bodies N"
	tp.Y.Label.Text, ip.Y.Label.Text = "ms", "mean iterations"
	tp.X.Scale, tp.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	tp.Y.Scale, tp.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	ip.X.Scale, ip.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	type key struct {
		walls bool
		lin   sap.Linear
	}
	var keys []key
	for _, r := range rows {
		if k := (key{r.Walls, r.Linear}); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	colors := []color.Color{color.RGBA{0x1f, 0x77, 0xb4, 255}, color.RGBA{0xd6, 0x27, 0x28, 255},
		color.RGBA{0x2c, 0xa0, 0x2c, 255}, color.RGBA{0xff, 0x7f, 0x0e, 255}, color.RGBA{0x94, 0x67, 0xbd, 255}}
	for i, k := range keys {
		var tpts, ipts plotter.XYs
		for _, r := range rows {
			if r.Walls == k.walls && r.Linear == k.lin && r.MsPerStep > 0 {
				tpts = append(tpts, plotter.XY{X: float64(r.N), Y: r.MsPerStep})
				ipts = append(ipts, plotter.XY{X: float64(r.N), Y: r.MeanIter})
			}
		}
		if len(tpts) == 0 {
			continue
		}
		name := pathName(rows[0].Solver, k.lin)
		switch {
		case k.walls:
			name = "walls, " + name
		case rows[0].Copies:
			name = "copies of no walls, " + name
		default:
			name = "no walls, " + name
		}
		for _, pp := range []struct {
			p   *plot.Plot
			pts plotter.XYs
		}{{tp, tpts}, {ip, ipts}} {
			l, s, err := plotter.NewLinePoints(pp.pts)
			if err != nil {
				return err
			}
			l.Color, s.Color = colors[i%len(colors)], colors[i%len(colors)]
			if !k.walls {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			pp.p.Add(l, s)
			pp.p.Legend.Add(name, l, s)
		}
	}
	tp.Legend.Top, tp.Legend.Left = true, true
	ip.Legend.Top, ip.Legend.Left = true, true
	tp.Add(plotter.NewGrid())
	ip.Add(plotter.NewGrid())
	w, h := 24*vg.Centimeter, 10*vg.Centimeter
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	if strings.ToLower(filepath.Ext(path)) == ".svg" {
		c = vgsvg.New(w, h)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	}
	rowsP := [][]*plot.Plot{{tp, ip}}
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: 5 * vg.Millimeter, PadTop: 2 * vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: 3 * vg.Millimeter}
	cv := plot.Align(rowsP, tiles, draw.New(c))
	tp.Draw(cv[0][0])
	ip.Draw(cv[0][1])
	return writePlot(path, c)
}
