package doctable

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: the region between the markers is replaced and the rest of
// the document kept; missing markers are an error naming the file.
func TestWrite(t *testing.T) {
	f := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(f, []byte("intro\n<!-- b -->\nold\n<!-- e -->\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tb := Table{File: f, Begin: "<!-- b -->", End: "<!-- e -->"}
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	if err := tb.Write("| new |\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(f)
	if want := "intro\n<!-- b -->\n| new |\n<!-- e -->\nend\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := (Table{File: f, Begin: "<!-- e -->", End: "<!-- b -->"}).Check(); err == nil {
		t.Error("markers out of order: no error")
	}
}
