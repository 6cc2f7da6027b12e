package embedded

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Scheme prefixes the names of embedded files.
const Scheme = "embedded://"

//go:embed drake_models mujoco_menagerie
var files embed.FS

// IsURI reports whether name is an embedded:// name.
func IsURI(name string) bool { return strings.HasPrefix(name, Scheme) }

// Files lists the embedded files (slash-separated paths), sorted.
func Files() []string {
	var out []string
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Path returns the file-system path of the embedded file named by uri
// (embedded://PATH), writing the embedded tree to its cache directory on
// first use. An unknown name is an error that lists the embedded models.
func Path(uri string) (string, error) {
	rel, ok := strings.CutPrefix(uri, Scheme)
	if !ok {
		return "", fmt.Errorf("%q is not an %s name", uri, Scheme)
	}
	rel = path.Clean(rel)
	if !fs.ValidPath(rel) {
		return "", fmt.Errorf("%q: not a valid embedded path", uri)
	}
	if _, err := fs.Stat(files, rel); err != nil {
		return "", fmt.Errorf("%q: no such embedded file (the embedded models: %s)", uri, strings.Join(models(), ", "))
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}

// Model is one embedded robot model file.
type Model struct {
	URI    string // embedded://PATH
	Format string // "URDF", "SDFormat" or "MJCF"
	// Source names the repository and commit the files were copied from.
	Source string
	// Licence names the licence and the embedded files that hold it.
	Licence string
}

// origin gives the source and licence of one embedded folder.
type origin struct{ dir, source, licence string }

// origins covers every embedded model file (TestModels checks it).
var origins = []origin{
	{"drake_models/iiwa_description/", "RobotLocomotion/models@4723170e", "BSD-3-Clause: drake_models/DRAKE_LICENSE.TXT, iiwa_description/iiwa_stack.LICENSE.txt"},
	{"drake_models/allegro_hand_description/", "RobotLocomotion/models@4723170e", "BSD-3-Clause and BSD: drake_models/DRAKE_LICENSE.TXT, allegro_hand_description/LICENSE.TXT"},
	{"mujoco_menagerie/kuka_iiwa_14/", "google-deepmind/mujoco_menagerie@04674c8d", "BSD-3-Clause: mujoco_menagerie/kuka_iiwa_14/LICENSE"},
	{"mujoco_menagerie/wonik_allegro/", "google-deepmind/mujoco_menagerie@04674c8d", "BSD-2-Clause: mujoco_menagerie/wonik_allegro/LICENSE"},
}

// Models lists the embedded URDF, SDFormat and MJCF files, sorted by URI,
// with where they come from and their licence.
func Models() []Model {
	var out []Model
	for _, f := range Files() {
		var format string
		switch path.Ext(f) {
		case ".urdf":
			format = "URDF"
		case ".sdf":
			format = "SDFormat"
		case ".xml":
			if path.Base(f) == "package.xml" {
				continue
			}
			format = "MJCF"
		default:
			continue
		}
		m := Model{URI: Scheme + f, Format: format}
		for _, o := range origins {
			if strings.HasPrefix(f, o.dir) {
				m.Source, m.Licence = o.source, o.licence
			}
		}
		out = append(out, m)
	}
	return out
}

// models lists the embedded models' URIs.
func models() []string {
	var out []string
	for _, m := range Models() {
		out = append(out, m.URI)
	}
	return out
}

var (
	dirMu   sync.Mutex
	dirPath string // the tree last written or found complete
)

// Dir returns the directory holding the embedded tree as files, writing it
// on first use: <cache>/stiction/embedded-HASH, with <cache> the user cache
// directory (else the temporary directory) and HASH a digest of every
// embedded file's path and contents, so that a binary with other files
// never reads stale ones. The tree is written into a temporary sibling and
// renamed into place, so concurrent processes see it whole or not at all.
// A tree removed while the process runs (a cleaned cache, a test's
// temporary directory) is written again.
func Dir() (string, error) {
	dirMu.Lock()
	defer dirMu.Unlock()
	if dirPath != "" && complete(dirPath) {
		return dirPath, nil
	}
	p, err := materialize()
	if err != nil {
		return "", err
	}
	dirPath = p
	return p, nil
}

func materialize() (string, error) {
	sum, err := digest()
	if err != nil {
		return "", err
	}
	var errs []error
	for _, base := range cacheBases() {
		dir := filepath.Join(base, "stiction", "embedded-"+sum)
		if complete(dir) {
			return dir, nil
		}
		if err := write(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		return dir, nil
	}
	return "", fmt.Errorf("embedded models: cannot write them to a cache directory: %w", errors.Join(errs...))
}

// cacheBases returns the directories tried for the cache, in order.
func cacheBases() []string {
	var out []string
	if d, err := os.UserCacheDir(); err == nil {
		out = append(out, d)
	}
	return append(out, os.TempDir())
}

// marker is written last into a complete tree.
const marker = ".complete"

func complete(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, marker))
	return err == nil
}

// digest hashes every embedded file's path and contents.
func digest() (string, error) {
	h := sha256.New()
	for _, f := range Files() {
		data, err := files.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// write writes the embedded tree into dir through a temporary sibling.
func write(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	for _, f := range Files() {
		data, err := files.ReadFile(f)
		if err != nil {
			return err
		}
		out := filepath.Join(tmp, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, marker), nil, 0o644); err != nil {
		return err
	}
	err = os.Rename(tmp, dir)
	switch {
	case err == nil || complete(dir): // written, or another process won the race
		return nil
	case os.RemoveAll(dir) == nil: // a stale, incomplete tree
		return os.Rename(tmp, dir)
	}
	return err
}
