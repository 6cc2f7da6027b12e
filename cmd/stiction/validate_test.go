package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateCommand runs the notes' quick claims through the CLI: the
// table has its header and PASS rows, --out writes VALIDATION.md, and a
// prefix that matches nothing or a stray argument is bad input (2).
func TestValidateCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI("validate", "--quick", "--claim", "notes/", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, want := range []string{"claim", "source", "expected", "measured", "tolerance", "PASS", "notes §0.1", "0 FAIL"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	report, err := os.ReadFile(filepath.Join(dir, "VALIDATION.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), "| claim | source | expected | measured | tolerance | result |") {
		t.Errorf("report lacks the table header:\n%s", report)
	}
	if code, _, _ := runCLI("validate", "--claim", "no-such-claim"); code != 2 {
		t.Errorf("unknown claim prefix: exit %d, want 2", code)
	}
	if code, _, _ := runCLI("validate", "extra"); code != 2 {
		t.Errorf("stray argument: exit %d, want 2", code)
	}
}
