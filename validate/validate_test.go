package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuickClaims runs every quick claim (what `stiction validate --quick`
// runs in CI) and fails on any FAIL row or any row without an expected or
// a measured value. It writes the report into a temporary directory and
// checks that it names every row and that its plots exist.
func TestQuickClaims(t *testing.T) {
	cs := Select(true)
	if len(cs) == 0 {
		t.Fatal("no quick claims registered")
	}
	dir := t.TempDir()
	rs := Run(&Context{OutDir: dir, Quick: true}, cs)
	for _, r := range rs {
		t.Logf("%s: %d rows in %.1f s", r.Claim.ID, len(r.Rows), r.Elapsed.Seconds())
		for _, row := range r.Rows {
			if row.Expected == "" || row.Measured == "" || row.Source == "" || row.Tolerance == "" {
				t.Errorf("%s: row %q has an empty field: %+v", r.Claim.ID, row.Claim, row)
			}
			if !row.Pass {
				t.Errorf("%s: FAIL %s: expected %s, measured %s (tolerance %s)", r.Claim.ID, row.Claim, row.Expected, row.Measured, row.Tolerance)
			}
		}
	}
	if err := WriteReport(dir, rs, true, 0); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "VALIDATION.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for _, row := range r.Rows {
			if !strings.Contains(string(report), md(row.Claim)) {
				t.Errorf("report lacks row %q", row.Claim)
			}
			for _, p := range row.Plots {
				if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
					t.Errorf("plot %s: %v", p, err)
				}
			}
		}
	}
}

// TestRunReportsErrors: a claim that errs or returns an empty row is
// reported as FAIL, never dropped.
func TestRunReportsErrors(t *testing.T) {
	rs := Run(&Context{}, []Claim{
		{ID: "x/err", Run: func(*Context) ([]Row, error) { return nil, os.ErrNotExist }},
		{ID: "x/empty", Run: func(*Context) ([]Row, error) { return []Row{{Claim: "c", Pass: true}}, nil }},
		{ID: "x/none", Run: func(*Context) ([]Row, error) { return nil, nil }},
	})
	pass, fail := Counts(rs)
	if pass != 0 || fail != 3 {
		t.Errorf("pass %d, fail %d; want 0 and 3", pass, fail)
	}
	var b strings.Builder
	if err := WriteTable(&b, rs); err != nil || !strings.Contains(b.String(), "FAIL") {
		t.Errorf("table %q, err %v", b.String(), err)
	}
}
