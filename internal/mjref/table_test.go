package mjref

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/internal/doctable"
)

var update = flag.Bool("update", false, "rewrite the parity table in docs/MODELS.md (runs the 10-second runs too)")

// parityTable is the generated region of docs/MODELS.md.
var parityTable = doctable.Table{File: "../../docs/MODELS.md", Begin: "<!-- parity table begin -->", End: "<!-- parity table end -->"}

// TestParityTable checks that docs/MODELS.md holds the parity table's
// markers, and with -update measures every model (10-second runs included)
// and writes the table between them:
//
//	go test ./internal/mjref -run TestParityTable -update
func TestParityTable(t *testing.T) {
	if err := parityTable.Check(); err != nil {
		t.Fatal(err)
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
	if err := parityTable.Write(table(rs)); err != nil {
		t.Fatal(err)
	}
}

// fileLine strips "path:line: " from an import error, keeping the line.
var fileLine = regexp.MustCompile(`^testdata/\S+?\.xml:(\d+): `)

// short is an error for a table cell: the line without the path, at most
// 110 characters, escaped.
func short(err error) string {
	return clip(fileLine.ReplaceAllString(err.Error(), "line $1: "))
}

// clip cuts s to 110 characters (not bytes) and escapes it for a table.
func clip(s string) string {
	if r := []rune(s); len(r) > 110 {
		s = string(r[:109]) + "…"
	}
	return mdEscape(s)
}

// horizonCell is the short-horizon cell: the steps compared, what cut
// them, where MuJoCo's first limit row acts within them, and the errors.
func horizonCell(r *result) string {
	var notes []string
	if r.cut != "" {
		notes = append(notes, fmt.Sprintf("%s at step %d", r.cut, r.cutStep))
	} else if r.contactStep >= 0 {
		notes = append(notes, fmt.Sprintf("contacts from step %d", r.contactStep))
	}
	if r.limitStep >= 0 {
		notes = append(notes, fmt.Sprintf("limits from step %d", r.limitStep))
	}
	h := fmt.Sprint(r.horizon)
	if len(notes) > 0 {
		h += " (" + strings.Join(notes, "; ") + ")"
	}
	return fmt.Sprintf("%s, %.1e / %.1e", h, r.trajInit, r.trajPert)
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
			cells = append(cells, r.cutAt())
		default:
			cells = append(cells, horizonCell(r))
		}
		if !r.longDone || r.level() < loads {
			cells = append(cells, "", "", "")
		} else {
			out := "runs"
			if r.longFail != "" {
				out = clip("fails: " + r.longFail)
			}
			if len(r.mjWarnings) > 0 {
				out += fmt.Sprintf(" (MuJoCo warns: %v)", r.mjWarnings)
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
	atLeast := func(l level) int {
		n := 0
		for k := l; k <= trajMatches; k++ {
			n += counts[k]
		}
		return n
	}
	fmt.Fprintf(&b, "\nOf %d models, Stiction refuses %d; of the %d it loads, %d match MuJoCo's masses, inertias and M(q0), and %d also its short-horizon trajectories.\n",
		len(rs), counts[refused], atLeast(loads), atLeast(massMatches), atLeast(trajMatches))
	// The refusals grouped by cause (the first error of each model).
	causes := map[string][]string{}
	var order []string
	for _, r := range rs {
		var err error
		switch {
		case r.mjErr != nil:
			err = fmt.Errorf("MuJoCo: %w", r.mjErr)
		case r.loadErr != nil:
			err = r.loadErr
		case r.mapErr != nil:
			err = r.mapErr
		default:
			continue
		}
		c := cause(err)
		if causes[c] == nil {
			order = append(order, c)
		}
		causes[c] = append(causes[c], "`"+strings.TrimSuffix(r.file, ".xml")+"`")
	}
	if len(order) > 0 {
		b.WriteString("\nRefused, by cause (the first error only):\n\n")
		for _, c := range order {
			fmt.Fprintf(&b, "- %s (%d): %s\n", c, len(causes[c]), strings.Join(causes[c], ", "))
		}
	}
	return b.String()
}

var (
	quoted  = regexp.MustCompile(`"[^"]*"`)
	numbers = regexp.MustCompile(`\b\d+(\.\d+)?(e-?\d+)?\b`)
)

// cause reduces an error to its kind: no file, line, names or numbers.
func cause(err error) string {
	s := fileLine.ReplaceAllString(err.Error(), "")
	s = quoted.ReplaceAllString(s, "…")
	s = numbers.ReplaceAllString(s, "N")
	return mdEscape(s)
}

// mdEscape keeps text literal in a markdown table cell.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}
