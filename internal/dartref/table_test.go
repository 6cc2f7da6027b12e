package dartref

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/internal/doctable"
	"github.com/stiction-sim/stiction/internal/robotrun"
)

var update = flag.Bool("update", false, "rewrite the example-robot-data table in docs/MODELS.md (needs STICTION_ERD_DIR and python3-dartpy; runs every robot 2 s)")

// robotTable is the generated region of docs/MODELS.md.
var robotTable = doctable.Table{File: "../../docs/MODELS.md", Begin: "<!-- example-robot-data table begin -->", End: "<!-- example-robot-data table end -->"}

// TestRobotTable checks that docs/MODELS.md holds the example-robot-data
// table's markers, and with -update measures every URDF of a checkout of
// example-robot-data — loads (with its meshes) and warnings, dofs, M and
// the bias against DART (without geometry), the 2-s run on a ground
// (robotrun) — and writes the table between them:
//
//	STICTION_ERD_DIR=DIR go test ./internal/dartref -run TestRobotTable -update -timeout 2h
func TestRobotTable(t *testing.T) {
	if err := robotTable.Check(); err != nil {
		t.Fatal(err)
	}
	if !*update {
		return
	}
	dir := os.Getenv("STICTION_ERD_DIR")
	if dir == "" {
		t.Fatal("-update needs STICTION_ERD_DIR: a checkout of example-robot-data with its meshes")
	}
	if _, err := Python(); err != nil {
		t.Fatalf("-update needs the DART reference: %v", err)
	}
	files, err := robotrun.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]string, len(files))
	t.Run("measure", func(t *testing.T) {
		for k, f := range files {
			rel, _ := filepath.Rel(dir, f)
			t.Run(filepath.Base(f), func(t *testing.T) {
				t.Parallel()
				rows[k] = tableRow(rel, f)
				t.Log(rows[k])
			})
		}
	})
	var b strings.Builder
	b.WriteString("| file | loads: Stiction / DART | warnings | dofs | M, bias rel. error vs DART | base | scheme | 2 s on a ground, zero control |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	if err := robotTable.Write(b.String()); err != nil { // re-read: the document may have changed while the robots ran
		t.Fatal(err)
	}
}

// tableRow measures one file.
func tableRow(rel, path string) string {
	name := strings.TrimSuffix(strings.TrimPrefix(rel, "robots/"), ".urdf")
	_, sOK, dOK, eM, eB, _ := compare(path)
	dart := "no"
	if dOK {
		dart = "yes"
	}
	errs, dofs := "—", "—"
	if !math.IsNaN(eM) {
		errs = fmt.Sprintf("%.1e, %.1e", eM, eB)
	}
	fixed := robotrun.Fixed(rel)
	base := "floating"
	if fixed {
		base = "fixed"
	}
	o := robotrun.Run(path, fixed, 2, "", nil)
	if o.Steps == 0 && o.Failed == 0 {
		why := "refused"
		if !sOK {
			why = "refused without geometry too"
		}
		return fmt.Sprintf("| %s | no / %s | — | — | %s | %s | — | %s: %s |", name, dart, errs, base, why, cell(o.Err))
	}
	if n := o.Dofs; n >= 0 {
		dofs = fmt.Sprint(n)
	}
	return fmt.Sprintf("| %s | yes / %s | %d | %s | %s | %s | %s | %s |", name, dart, len(o.Warnings), dofs, errs, base, o.Scheme, cell(fmt.Errorf("%s", o.Summary())))
}

// cell is an error's first line, without the checkout's path, escaped for
// a table cell and cut to 140 characters.
func cell(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if d := os.Getenv("STICTION_ERD_DIR"); d != "" {
		s = strings.ReplaceAll(s, d+"/", "")
	}
	s = strings.ReplaceAll(s, "|", "\\|")
	if r := []rune(s); len(r) > 140 {
		s = string(r[:139]) + "…"
	}
	return s
}
