package fclib

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	var files []string
	for _, n := range sampleFiles {
		files = append(files, samplePath(n))
	}
	var b bytes.Buffer
	// The local sample may stall (below); that is reported as an error
	// wrapping ErrNotConverged, after the table.
	if err := Report(&b, files, 0, 0); err != nil && !errors.Is(err, ErrNotConverged) {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 1+len(files)+2 || !strings.HasPrefix(lines[0], "problem") {
		t.Fatalf("want a header, %d rows and 2 notes, got %d lines", len(files), len(lines))
	}
	// At the defaults the global samples converge; the local one may stall
	// at SAP's round-off floor (see localRegEps).
	for i, name := range sampleFiles {
		f := strings.Fields(lines[1+i])
		if len(f) != 14 || f[0] != name || (f[1] != "-" && f[4] != "converged") {
			t.Errorf("row %q: want 14 columns for %s, converged if global", lines[1+i], name)
		}
	}
	if !strings.Contains(lines[6], "CubeH8.hdf5: matrix stored as its upper triangle") {
		t.Errorf("note %q", lines[6])
	}
}

// TestReportErrors checks that a bad file gets an error row and an error,
// and does not stop the other rows.
func TestReportErrors(t *testing.T) {
	var b bytes.Buffer
	err := Report(&b, []string{"testdata/missing.hdf5", samplePath(localFile)}, 1e-3, 0)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want a not-exist error", err)
	}
	out := b.String()
	if !strings.Contains(out, "missing.hdf5") || !strings.Contains(out, "error:") || !strings.Contains(out, localFile) {
		t.Errorf("output lacks the error row or the good row:\n%s", out)
	}
}
