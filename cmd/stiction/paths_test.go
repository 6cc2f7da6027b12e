package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model/embedded"
)

// repoRoot returns the directory holding go.mod above the test's
// directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = up
	}
}

// TestNoMachinePaths: no Markdown file and no test of the repository names
// a folder of the development machine (its work tree or the shared folder
// beside the repository), which a fresh clone does not have: documented
// commands and tests use files in the repository or embedded ones.
func TestNoMachinePaths(t *testing.T) {
	// Spelled in pieces so that this file does not match itself.
	bad := []string{"/" + "work/", "../" + "shared/", "shared" + "/models"}
	root := repoRoot(t)
	var n int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		rel, _ := filepath.Rel(root, p)
		for i, line := range strings.Split(string(data), "\n") {
			for _, b := range bad {
				if strings.Contains(line, b) {
					t.Errorf("%s:%d names %q: %s", rel, i+1, b, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Errorf("read %d Markdown and test files, want the repository's (≥ 50)", n)
	}
}

// TestDocumentedModelsEmbedded: every robot model file the README and
// docs/*.md name as embedded://PATH, or as $E/PATH and $D/PATH with
// E=embedded://mujoco_menagerie and D=embedded://drake_models as the
// documents set them, is one of the embedded models (which
// TestModelsCommand loads and builds), so the documented commands run on a
// fresh clone.
func TestDocumentedModelsEmbedded(t *testing.T) {
	root := repoRoot(t)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, m := range embedded.Models() {
		known[m.URI] = true
	}
	name := regexp.MustCompile(`(embedded://|\$E/|\$D/)[^\s` + "`" + `'")]+\.(xml|urdf|sdf)`)
	expand := strings.NewReplacer("$E/", "embedded://mujoco_menagerie/", "$D/", "embedded://drake_models/")
	seen := map[string]bool{}
	for _, p := range append(docs, filepath.Join(root, "README.md")) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		for _, n := range name.FindAllString(string(data), -1) {
			if strings.ContainsAny(n, "{*") {
				continue // a family of files, as in docs/MODELS.md's table
			}
			uri := expand.Replace(n)
			seen[uri] = true
			if !known[uri] {
				t.Errorf("%s names %s: not an embedded model", rel, n)
			}
		}
	}
	if len(seen) < 8 {
		t.Errorf("%d embedded models named in the docs, want the README's and docs/MODELS.md's (≥ 8): %v", len(seen), seen)
	}
}
