package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/internal/peers"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
)

// TestPeerFigures: the peers' figures are read from the README's first
// table of "Peer figures".
func TestPeerFigures(t *testing.T) {
	header, cells := peerFigures(peers.README())
	if len(header) != 4 || !strings.HasPrefix(header[0], "MuJoCo") {
		t.Fatalf("header %q", header)
	}
	for _, name := range peers.Names {
		if len(cells[name]) != len(header) {
			t.Fatalf("%s: cells %q", name, cells[name])
		}
	}
	if got := leadingNumber(cells["clutter-40"][0]); got != "0.028" {
		t.Errorf("clutter-40, MuJoCo: %q, want 0.028", got)
	}
	if got := leadingNumber(cells["clutter-160"][3]); got != "1.11" {
		t.Errorf("clutter-160, Stiction main: %q, want 1.11", got)
	}
}

// TestBenchPeers runs stiction bench --peers on shortened copies of the
// peer scenes (3 steps each) from --peers-dir and checks the table and
// peers.csv.
func TestBenchPeers(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "README.md"), peers.README(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range peers.Names {
		data, err := peers.YAML(name)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(strings.Replace(string(data), "duration: 10.0", "duration: 0.03", 1), "duration: 5.0", "duration: 0.03", 1)
		if text == string(data) {
			t.Fatalf("%s: no duration to shorten", name)
		}
		if err := os.WriteFile(filepath.Join(src, name+".yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	code, stdout, errs := runCLI("bench", "--peers", "--peers-dir", src, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	t.Log(stdout)
	for _, want := range []string{"clutter-40", "clutter-160", "stack-100-spheres", "MuJoCo", "0.028"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	f, err := os.Open(filepath.Join(out, "peers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[1][0] != "clutter-40" || recs[1][9] != "0.028" {
		t.Fatalf("peers.csv: %v", recs)
	}
	if code, _, _ := runCLI("bench", "--peers", "--peers-dir", filepath.Join(src, "missing"), "--out", out); code != 1 {
		t.Errorf("missing --peers-dir: exit %d, want 1", code)
	}
}

// TestSetSolverKeepsRefiner: the scaling study's solver keeps the scene's
// refinement of Lagged contacts and its SAP tolerance (it fell back to
// sap.DefaultParams without refinement once the refiner became the
// scenes' default).
func TestSetSolverKeepsRefiner(t *testing.T) {
	sc, err := scene.LoadClutterN(10, true, []string{"solver.tolerance=1e-7"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := setSolver(b, sap.DenseLinear, 0); err != nil {
		t.Fatal(err)
	}
	ref, ok := b.Config.Solver.(*solver.LaggedRefiner)
	if !ok {
		t.Fatalf("solver is %T, want *solver.LaggedRefiner", b.Config.Solver)
	}
	in, ok := ref.Inner.(*sap.Solver)
	if !ok || in.Params().Linear != sap.DenseLinear || in.Params().RelTolerance != 1e-7 || ref.MaxResolves != scene.DefaultLagIterations {
		t.Fatalf("inner %T %+v, refiner %+v", ref.Inner, in.Params(), ref)
	}
	if err := setSolver(b, islandsPath, 1); err != nil {
		t.Fatal(err)
	}
	is, ok := b.Config.Solver.(*island.Solver)
	if !ok {
		t.Fatalf("solver is %T, want *island.Solver", b.Config.Solver)
	}
	is.Close()
}
