package main

import (
	"bytes"
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

// documentedRobotCommands returns the robot commands (run and inspect of a
// model named $E/..., $D/... or embedded://...) of the sh blocks of the
// given Markdown text, continuation lines joined and $E, $D expanded, as
// argument lists (single quotes group words, as the shell does).
func documentedRobotCommands(text string) [][]string {
	expand := strings.NewReplacer("$E/", "embedded://mujoco_menagerie/", "$D/", "embedded://drake_models/")
	var cmds [][]string
	inSh := false
	var pending string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inSh = true
			continue
		case strings.HasPrefix(line, "```"):
			inSh = false
			continue
		}
		if !inSh {
			continue
		}
		line = pending + strings.TrimSpace(line)
		pending = ""
		if strings.HasSuffix(line, `\`) {
			pending = strings.TrimSuffix(line, `\`) + " "
			continue
		}
		rest, ok := strings.CutPrefix(line, "go run ./cmd/stiction ")
		if !ok || !(strings.HasPrefix(rest, "run ") || strings.HasPrefix(rest, "inspect ")) {
			continue
		}
		if !strings.Contains(rest, "$E/") && !strings.Contains(rest, "$D/") && !strings.Contains(rest, "embedded://") {
			continue
		}
		rest, _, _ = strings.Cut(rest, "|")  // "| head"
		rest, _, _ = strings.Cut(rest, " #") // a comment
		var args []string
		var word strings.Builder
		quoted, inWord := false, false
		for _, r := range expand.Replace(rest) {
			switch {
			case r == '\'':
				quoted, inWord = !quoted, true
			case r == ' ' && !quoted:
				if inWord {
					args = append(args, word.String())
					word.Reset()
					inWord = false
				}
			default:
				word.WriteRune(r)
				inWord = true
			}
		}
		if inWord {
			args = append(args, word.String())
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// TestDocumentedRobotCommands runs every robot command of the README and
// docs/MODELS.md (run for 20 ms of simulated time, without --view, --out
// into a temporary directory; inspect as written): each must exit 0 on a
// fresh clone, with no file but the repository's and the binary's.
func TestDocumentedRobotCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every documented robot (-short)")
	}
	root := repoRoot(t)
	var n int
	for _, doc := range []string{"README.md", "docs/MODELS.md"} {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range documentedRobotCommands(string(data)) {
			var cmd []string
			for i := 0; i < len(args); i++ {
				switch args[i] {
				case "--view":
					continue
				case "--out":
					cmd = append(cmd, "--out", t.TempDir())
					i++
					continue
				}
				cmd = append(cmd, args[i])
			}
			if cmd[0] == "run" {
				cmd = append(cmd, "--duration", "0.02", "--quiet")
			}
			n++
			t.Logf("%s: stiction %q", doc, cmd)
			var out, errb bytes.Buffer
			if code := run(cmd, &out, &errb); code != 0 {
				t.Errorf("%s: %s\nexit %d: %s", doc, strings.Join(args, " "), code, errb.String())
			}
		}
	}
	if n < 15 {
		t.Errorf("ran %d documented robot commands, want the README's and docs/MODELS.md's (≥ 15)", n)
	}
}

// TestDocumentedArmHand runs docs/MODELS.md's include example — Drake's
// Allegro hand welded on Menagerie's iiwa, whose palm touches the link it
// is welded to through a massless frame — for 0.5 s: no malformed problem,
// no failed step (issue 21's acceptance).
func TestDocumentedArmHand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "MODELS.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "```yaml\nname: arm-hand")
	if start < 0 {
		t.Fatal("docs/MODELS.md has no arm-hand include example")
	}
	body := doc[start+len("```yaml\n"):]
	body = body[:strings.Index(body, "```")]
	path := filepath.Join(t.TempDir(), "arm-hand.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"run", path, "--duration", "0.5", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}
