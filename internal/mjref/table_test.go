package mjref

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the parity table in docs/MODELS.md (runs the 10-second runs too)")

const (
	modelsDoc  = "../../docs/MODELS.md"
	tableBegin = "<!-- parity table begin -->"
	tableEnd   = "<!-- parity table end -->"
)

// TestParityTable checks that docs/MODELS.md holds the parity table's
// markers, and with -update measures every model (10-second runs included)
// and writes the table between them:
//
//	go test ./internal/mjref -run TestParityTable -update
func TestParityTable(t *testing.T) {
	doc, err := os.ReadFile(modelsDoc)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(tableBegin)), bytes.Index(doc, []byte(tableEnd))
	if i < 0 || j < i {
		t.Fatalf("%s: markers %q … %q missing or out of order", modelsDoc, tableBegin, tableEnd)
	}
	if !*update {
		return
	}
	tool(t)
	rs := make([]*result, len(parityModels))
	t.Run("measure", func(t *testing.T) {
		for k, c := range parityModels {
			t.Run(c.file, func(t *testing.T) {
				t.Parallel()
				rs[k] = measure(t, c.file, true)
			})
		}
	})
	var b strings.Builder
	b.WriteString(tableBegin + "\n")
	b.WriteString(table(rs))
	b.WriteString(tableEnd)
	out := append(append(append([]byte{}, doc[:i]...), b.String()...), doc[j+len(tableEnd):]...)
	if err := os.WriteFile(modelsDoc, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fileLine strips "path:line: " from an import error, keeping the line.
var fileLine = regexp.MustCompile(`^testdata/\S+?\.xml:(\d+): `)

func short(err error) string {
	s := fileLine.ReplaceAllString(err.Error(), "line $1: ")
	s = strings.ReplaceAll(s, "|", `\|`)
	if len(s) > 110 {
		s = s[:107] + "…"
	}
	return s
}

func table(rs []*result) string {
	var b strings.Builder
	b.WriteString("| model | MuJoCo nq/nv, integrator, dt | Stiction | inertia, M(q0) rel. error | short horizon: steps, max \\|Δqpos\\| initial / perturbed | 10 s with zero control | final root z, Stiction / MuJoCo | peak penetration, Stiction / MuJoCo |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	counts := map[level]int{}
	for _, r := range rs {
		counts[r.level()]++
		cells := []string{"`" + r.file + "`"}
		if r.mjErr != nil {
			cells = append(cells, "fails: "+short(r.mjErr), "", "", "", "", "", "")
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
			continue
		}
		cells = append(cells, fmt.Sprintf("%d/%d, %s, %g", r.mj.NQ, r.mj.NV, r.mj.Integrator, r.dtMJ))
		switch {
		case r.loadErr != nil:
			cells = append(cells, "refused: "+short(r.loadErr))
		case r.mapErr != nil:
			cells = append(cells, "differs: "+short(r.mapErr))
		default:
			cells = append(cells, fmt.Sprintf("**%v** (%s, dt %g)", r.level(), r.scheme, r.dtSt))
		}
		if r.massDone {
			cells = append(cells, fmt.Sprintf("%.1e, %.1e", r.massErr, r.mErr))
		} else {
			cells = append(cells, "")
		}
		switch {
		case !r.trajDone:
			cells = append(cells, "")
		case r.trajErr != nil:
			cells = append(cells, "fails: "+short(r.trajErr))
		case r.horizon == 0:
			cells = append(cells, "contact at t = 0")
		default:
			cells = append(cells, fmt.Sprintf("%d, %.1e / %.1e", r.horizon, r.trajInit, r.trajPert))
		}
		if !r.longDone || r.level() < loads {
			cells = append(cells, "", "", "")
		} else {
			out := "runs"
			if r.longFail != "" {
				out = "fails: " + strings.ReplaceAll(r.longFail, "|", `\|`)
				if len(out) > 110 {
					out = out[:107] + "…"
				}
			}
			at := ""
			if r.longFail != "" {
				at = ", Stiction's at the failure"
			}
			cells = append(cells, out,
				fmt.Sprintf("%.4f / %.4f (`%s`%s)", r.heightSt, r.heightMJ, r.longRootName, at),
				fmt.Sprintf("%.2g / %.2g m", r.penSt, r.penMJ))
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	fmt.Fprintf(&b, "\n%d models: %d refused by Stiction, %d load, %d match MuJoCo's masses, inertias and M(q0), %d its short-horizon trajectories.\n",
		len(rs), counts[refused], counts[loads], counts[massMatches], counts[trajMatches])
	return b.String()
}
