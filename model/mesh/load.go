package mesh

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Load reads the mesh file at path, choosing the reader by the extension
// (case-insensitive): .stl, .obj, .gltf or .glb.
func Load(path string) (*Mesh, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".gltf", ".glb":
		return ReadGLTF(path)
	case ".stl", ".obj":
	default:
		return nil, fmt.Errorf("%s: unsupported mesh format %q (want .stl, .obj, .gltf or .glb)", path, ext)
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
	if ext == ".stl" {
		return ReadSTL(path, data)
	}
	return ReadOBJ(path, data)
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
	m, err := Load(path)
	if err != nil {
		return nil, err
	}
	if c.meshes == nil {
		c.meshes = map[string]*Mesh{}
	}
	c.meshes[path] = m
	return m, nil
}
