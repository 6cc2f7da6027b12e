package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stiction-sim/stiction/internal/peers"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// peerRow is one peer scene's run with the default settings.
type peerRow struct {
	Scene      string
	Summary    record.Summary // wall_time_s is the stepping time only
	SecPerSec  float64        // wall seconds per simulated second
	PeerCells  []string       // the peers' figures from the README, in its column order
	PeerHeader []string
}

// runPeers runs every peer scene (stiction bench --peers): from dir
// (DIR/NAME.yaml and DIR/README.md) when dir is not empty, else from the
// copies embedded in the binary (internal/peers), with the default settings
// (workers > 0 wraps the solve in the island solver, as stiction run
// --workers does). It prints, per scene, the wall seconds per simulated
// second (stepping only), the Newton iterations, penetration, final speed,
// the largest e_m and the failed steps, beside the peers' figures of the
// README, and writes out/peers.csv.
func runPeers(dir string, workers int, out string, stdout io.Writer) error {
	readme := peers.README()
	if dir != "" {
		data, err := os.ReadFile(filepath.Join(dir, "README.md"))
		if err != nil {
			return fmt.Errorf("--peers-dir: %w", err)
		}
		readme = data
	}
	header, cells := peerFigures(readme)
	var rows []peerRow
	for _, name := range peers.Names {
		sc, err := loadPeerScene(dir, name)
		if err != nil {
			return err
		}
		b, err := scene.Build(sc)
		if err != nil {
			return err
		}
		if workers > 0 {
			if err := runner.WrapIslands(b, workers); err != nil {
				return err
			}
		}
		sum, err := runPeer(b)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, peerRow{Scene: name, Summary: sum, SecPerSec: sum.WallTimeS / sum.SimTime,
			PeerCells: cells[name], PeerHeader: header})
	}
	printPeers(stdout, rows, header)
	return writePeersCSV(filepath.Join(out, "peers.csv"), rows, header)
}

// loadPeerScene reads the peer scene name from dir, or the embedded copy.
func loadPeerScene(dir, name string) (*scene.Scene, error) {
	if dir == "" {
		return peers.Load(name, nil)
	}
	return scene.Load(filepath.Join(dir, name+".yaml"), nil)
}

// runPeer runs b's whole duration, timing the steps only.
func runPeer(b *scene.Built) (record.Summary, error) {
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return record.Summary{}, err
	}
	var acc record.Accumulator
	var wall time.Duration
	for range b.Steps {
		t0 := time.Now()
		st, err := s.Step()
		wall += time.Since(t0)
		if err != nil {
			return record.Summary{}, err
		}
		acc.Add(st)
	}
	return acc.Summary(b.Name, b.Config.DT, wall.Seconds(), b.Model, s.State), nil
}

// peerFigures reads the first table of the README's "Peer figures"
// section: its engine names (header cells after "scene") and, per scene,
// the cells of its row.
func peerFigures(readme []byte) (header []string, cells map[string][]string) {
	cells = map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(readme))
	inSection := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "## "):
			if inSection && header != nil {
				return header, cells
			}
			inSection = strings.HasPrefix(line, "## Peer figures")
		case !inSection || !strings.HasPrefix(line, "|"):
			if inSection && header != nil && len(cells) > 0 {
				return header, cells // end of the first table
			}
		default:
			f := strings.Split(strings.Trim(line, "|"), "|")
			for i := range f {
				f[i] = strings.TrimSpace(f[i])
			}
			switch {
			case f[0] == "scene":
				header = f[1:]
			case strings.HasPrefix(f[0], "---"):
			default:
				cells[f[0]] = f[1:]
			}
		}
	}
	return header, cells
}

// leadingNumber returns the number a README cell starts with ("0.075 (mean
// 7.4 …)" → "0.075"), or the cell.
func leadingNumber(cell string) string {
	f := strings.Fields(cell)
	if len(f) > 0 {
		if _, err := strconv.ParseFloat(f[0], 64); err == nil {
			return f[0]
		}
	}
	return cell
}

// shortEngine shortens a README column name to its first word.
func shortEngine(h string) string {
	if f := strings.Fields(h); len(f) > 0 {
		return f[0]
	}
	return h
}

// printPeers prints the table.
func printPeers(w io.Writer, rows []peerRow, header []string) {
	fmt.Fprintf(w, "%-18s %8s %7s %5s %10s %10s %9s %6s", "scene", "s/s", "iter", "max", "pen_max_m", "v_final", "e_m_max", "failed")
	for _, h := range header {
		fmt.Fprintf(w, " %9s", shortEngine(h))
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		s := r.Summary
		fmt.Fprintf(w, "%-18s %8.4f %7.2f %5d %10.3g %10.3g %9.3g %6d", r.Scene, r.SecPerSec, s.IterationsMean, s.IterationsMax,
			s.PenetrationMax, s.FinalMaxSpeed, s.MomentumErrorMax, s.FailedSteps)
		for i := range header {
			c := "–"
			if i < len(r.PeerCells) {
				c = leadingNumber(r.PeerCells[i])
			}
			fmt.Fprintf(w, " %9s", c)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "s/s: wall seconds per simulated second, stepping only; peers' columns: their s/s from the peer README (another machine and day: compare ratios)")
}

// writePeersCSV writes the table with full peer cells.
func writePeersCSV(path string, rows []peerRow, header []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	head := []string{"scene", "sec_per_sec", "wall_time_s", "iterations_mean", "iterations_max", "penetration_max", "final_max_speed", "momentum_error_max", "failed_steps"}
	for _, h := range header {
		head = append(head, "peer: "+h)
	}
	w.Write(head)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, r := range rows {
		s := r.Summary
		rec := []string{r.Scene, g(r.SecPerSec), g(s.WallTimeS), g(s.IterationsMean), strconv.Itoa(s.IterationsMax), g(s.PenetrationMax),
			g(s.FinalMaxSpeed), g(s.MomentumErrorMax), strconv.Itoa(s.FailedSteps)}
		for i := range header {
			c := ""
			if i < len(r.PeerCells) {
				c = r.PeerCells[i]
			}
			rec = append(rec, c)
		}
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
