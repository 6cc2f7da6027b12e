package mesh

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Load reads the mesh file at path, choosing the reader by the extension
// (case-insensitive): .stl, .obj, .gltf, .glb or .dae (COLLADA, dae.go).
func Load(path string) (*Mesh, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".gltf", ".glb":
		return ReadGLTF(path)
	case ".stl", ".obj", ".dae":
	default:
		return nil, fmt.Errorf("%s: unsupported mesh format %q (want .stl, .obj, .gltf, .glb or .dae)", path, ext)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("mesh: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > 1<<30 {
		return nil, fmt.Errorf("mesh: %s is not a regular file of at most 1 GiB", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mesh: %w", err)
	}
	switch ext {
	case ".stl":
		return ReadSTL(path, data)
	case ".dae":
		return ReadDAE(path, data)
	}
	return ReadOBJ(path, data)
}

// shared is the process-wide mesh cache of LoadShared.
var shared = struct {
	sync.Mutex
	m     map[sharedKey]*Mesh
	order []sharedKey
}{m: map[sharedKey]*Mesh{}}

// sharedKey identifies a file's content by path, size and modification
// time.
type sharedKey struct {
	path string
	size int64
	mod  int64
}

// MaxShared bounds the number of meshes LoadShared keeps (the oldest is
// dropped first).
const MaxShared = 256

// LoadShared is Load with a process-wide cache: a file read before, with
// the same size and modification time, is not read again (an importer
// reads a mesh for its mass properties, the scene builder for its hull
// and drawing). It is safe for concurrent use; the returned mesh is shared
// and must not be modified.
func LoadShared(path string) (*Mesh, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("mesh: %w", err)
	}
	key := sharedKey{path, fi.Size(), fi.ModTime().UnixNano()}
	shared.Lock()
	m, ok := shared.m[key]
	shared.Unlock()
	if ok {
		return m, nil
	}
	if m, err = Load(path); err != nil {
		return nil, err
	}
	shared.Lock()
	defer shared.Unlock()
	if _, ok := shared.m[key]; !ok {
		if len(shared.order) >= MaxShared {
			delete(shared.m, shared.order[0])
			shared.order = shared.order[1:]
		}
		shared.m[key] = m
		shared.order = append(shared.order, key)
	}
	return shared.m[key], nil
}

// ResetShared empties LoadShared's cache (for cold-start benchmarks).
func ResetShared() {
	shared.Lock()
	defer shared.Unlock()
	shared.m, shared.order = map[sharedKey]*Mesh{}, nil
}

// Cache loads each mesh file once. It is not safe for concurrent use.
type Cache struct {
	meshes map[string]*Mesh
}

// Load returns the mesh at path, reading it on first use. The returned mesh
// is shared: do not modify it.
func (c *Cache) Load(path string) (*Mesh, error) {
	if m, ok := c.meshes[path]; ok {
		return m, nil
	}
	m, err := LoadShared(path)
	if err != nil {
		return nil, err
	}
	if c.meshes == nil {
		c.meshes = map[string]*Mesh{}
	}
	c.meshes[path] = m
	return m, nil
}
