package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/stiction-sim/stiction/model/embedded"
)

// File is a file a job carries: a file its scene reads (an included
// scene or model, a mesh, a heightfield, a package.xml), by its path on
// the sweep's machine, with its content and the content's SHA-256. A
// worker reads nothing else but embedded models.
type File struct {
	Path   string // absolute and clean, as on the sweep's machine
	SHA256 string // hex digest of Data
	Data   []byte
}

// newFile returns the File of path with its content.
func newFile(path string, data []byte) File {
	sum := sha256.Sum256(data)
	return File{Path: path, SHA256: hex.EncodeToString(sum[:]), Data: data}
}

// recorder lists the files a scene reads while it is built (as a
// model.Options.Access that allows every path).
type recorder struct {
	mu    sync.Mutex
	paths map[string]bool
}

func newRecorder() *recorder { return &recorder{paths: map[string]bool{}} }

// access records path and allows it.
func (r *recorder) access(path string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paths[filepath.Clean(path)] = true
	return path, nil
}

// bundle returns the regular files recorded, with the external buffers
// and images of glTF files, sorted by path; embedded models are left out
// (every worker has them).
func (r *recorder) bundle() ([]File, error) {
	r.mu.Lock()
	paths := make([]string, 0, len(r.paths))
	for p := range r.paths {
		paths = append(paths, p)
	}
	r.mu.Unlock()
	emb := ""
	if d, err := embedded.Dir(); err == nil {
		emb = d
	}
	seen := map[string]bool{}
	var files []File
	var add func(p string) error
	add = func(p string) error {
		p = filepath.Clean(p)
		if seen[p] || emb != "" && within(p, emb) {
			return nil
		}
		seen[p] = true
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return nil // a directory searched, or a candidate that is not there
		}
		if fi.Size() > MaxJobBytes {
			return fmt.Errorf("%s: %d bytes, more than a job carries (%d)", p, fi.Size(), MaxJobBytes)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, newFile(p, data))
		if strings.EqualFold(filepath.Ext(p), ".gltf") {
			for _, uri := range gltfURIs(data) {
				if err := add(filepath.Join(filepath.Dir(p), filepath.FromSlash(uri))); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, p := range paths {
		if err := add(p); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// gltfURIs returns the relative URIs of a glTF file's buffers and images
// (not data: URIs), which its reader loads from the file's directory.
func gltfURIs(data []byte) []string {
	var doc struct {
		Buffers []struct{ URI string } `json:"buffers"`
		Images  []struct{ URI string } `json:"images"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	for _, b := range doc.Buffers {
		out = append(out, b.URI)
	}
	for _, im := range doc.Images {
		out = append(out, im.URI)
	}
	return slices.DeleteFunc(out, func(u string) bool { return u == "" || strings.HasPrefix(u, "data:") || strings.Contains(u, "://") })
}

// within reports whether the clean path p is dir or lies under it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}
