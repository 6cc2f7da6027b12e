package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// PoseJSON is a pose in scene.json: a position and a unit quaternion
// (w, x, y, z).
type PoseJSON struct {
	Position   [3]float64 `json:"position"`
	Quaternion [4]float64 `json:"quaternion"`
}

// GeometryJSON is one collision shape of a body in scene.json. Which size
// fields are set depends on Shape (see docs/OUTPUT.md).
type GeometryJSON struct {
	Shape       string      `json:"shape"`
	Radius      float64     `json:"radius,omitempty"`
	HalfLength  float64     `json:"half_length,omitempty"`
	HalfExtents *[3]float64 `json:"half_extents,omitempty"`
	Radii       *[3]float64 `json:"radii,omitempty"` // ellipsoid semi-axes
	// Mesh indexes SceneJSON.Meshes: the triangles of a convex hull, or of
	// a visual mesh.
	Mesh *int     `json:"mesh,omitempty"`
	Pose PoseJSON `json:"pose"` // in the body frame
}

// VisualJSON is one visual shape of a body: a geometry (shape "mesh" with
// Mesh set, or a primitive) and its colour.
type VisualJSON struct {
	GeometryJSON
	Color *[4]float64 `json:"color,omitempty"` // RGBA in [0, 1]; absent: the body's palette colour
}

// MeshJSON is a triangle mesh shared by geometries and visuals:
// vertex coordinates x, y, z one after the other, and three vertex indices
// per triangle (counter-clockwise seen from outside).
type MeshJSON struct {
	Name      string    `json:"name"`
	Positions []float32 `json:"positions"`
	Indices   []uint32  `json:"indices"`
}

// BodyJSON is one body in scene.json. Pose is the world pose of a fixed body
// and the initial pose of any other.
type BodyJSON struct {
	Name       string         `json:"name"`
	Fixed      bool           `json:"fixed"`
	Pose       PoseJSON       `json:"pose"`
	Geometries []GeometryJSON `json:"geometries"`
	Visuals    []VisualJSON   `json:"visuals,omitempty"` // drawn instead of the geometries when present
}

// SceneJSON is the content of scene.json: what a viewer needs to draw a run.
type SceneJSON struct {
	Scene       string     `json:"scene"`
	DT          float64    `json:"dt"`
	RecordEvery int        `json:"record_every"`
	Gravity     [3]float64 `json:"gravity"`
	Bodies      []BodyJSON `json:"bodies"`
	Meshes      []MeshJSON `json:"meshes,omitempty"`
}

// PoseToJSON converts a pose.
func PoseToJSON(x spatial.Pose) PoseJSON {
	return PoseJSON{Position: x.P, Quaternion: [4]float64{x.R.W, x.R.X, x.R.Y, x.R.Z}}
}

// Pose converts back to a spatial.Pose.
func (p PoseJSON) Pose() spatial.Pose {
	q := p.Quaternion
	return spatial.Pose{R: spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}, P: p.Position}
}

// DescribeScene returns the scene description of model m in state s (the
// initial state) for a scene named name, time step dt and recording
// interval every.
func DescribeScene(name string, dt float64, every int, m *multibody.Model, s *multibody.State) SceneJSON {
	out := SceneJSON{Scene: name, DT: dt, RecordEvery: every, Gravity: m.Gravity, Bodies: make([]BodyJSON, len(m.Bodies))}
	for b, body := range m.Bodies {
		out.Bodies[b] = BodyJSON{Name: body.Name, Fixed: body.Tree < 0, Pose: PoseToJSON(m.BodyPose(s, b)), Geometries: []GeometryJSON{}}
	}
	meshes := meshTable{out: &out, index: map[string]int{}}
	for _, g := range m.Geometries {
		gj := shapeJSON(g.Shape, g.Pose)
		if g.Shape.Kind == geometry.ConvexHull {
			gj.Mesh = meshes.hull(g.Shape.Hull)
		}
		out.Bodies[g.Body].Geometries = append(out.Bodies[g.Body].Geometries, gj)
	}
	for _, v := range m.Visuals {
		vj := VisualJSON{GeometryJSON: shapeJSON(v.Shape, v.Pose)}
		if len(v.Triangles) > 0 {
			vj.Shape, vj.Mesh = "mesh", meshes.add(v.MeshKey, v.Vertices, v.Triangles)
		}
		if v.Color[3] > 0 {
			c := v.Color
			vj.Color = &c
		}
		out.Bodies[v.Body].Visuals = append(out.Bodies[v.Body].Visuals, vj)
	}
	return out
}

// shapeJSON describes a primitive shape at pose x.
func shapeJSON(s geometry.Shape, x spatial.Pose) GeometryJSON {
	gj := GeometryJSON{Shape: s.Kind.String(), Pose: PoseToJSON(x)}
	switch s.Kind {
	case geometry.Sphere:
		gj.Radius = s.Radius
	case geometry.Capsule, geometry.Cylinder:
		gj.Radius, gj.HalfLength = s.Radius, s.HalfLength
	case geometry.Box:
		he := [3]float64(s.HalfExtents)
		gj.HalfExtents = &he
	case geometry.Ellipsoid:
		r := [3]float64(s.Radii)
		gj.Radii = &r
	}
	return gj
}

// meshTable collects the meshes of a scene description, each once.
type meshTable struct {
	out   *SceneJSON
	index map[string]int
	hulls map[*geometry.Hull]int
}

// add returns the index of the mesh named key, adding it on first use.
func (t *meshTable) add(key string, verts []spatial.Vec3, tris [][3]int32) *int {
	if i, ok := t.index[key]; ok {
		return &i
	}
	mj := MeshJSON{Name: key, Positions: make([]float32, 0, 3*len(verts)), Indices: make([]uint32, 0, 3*len(tris))}
	for _, v := range verts {
		mj.Positions = append(mj.Positions, float32(v[0]), float32(v[1]), float32(v[2]))
	}
	for _, tr := range tris {
		mj.Indices = append(mj.Indices, uint32(tr[0]), uint32(tr[1]), uint32(tr[2]))
	}
	i := len(t.out.Meshes)
	t.out.Meshes = append(t.out.Meshes, mj)
	t.index[key] = i
	return &i
}

// hull adds the triangles of a convex hull (shared hulls once), named
// "hullN" in order of first use so that the file is deterministic.
func (t *meshTable) hull(h *geometry.Hull) *int {
	if i, ok := t.hulls[h]; ok {
		return &i
	}
	if t.hulls == nil {
		t.hulls = map[*geometry.Hull]int{}
	}
	t.hulls[h] = len(t.out.Meshes)
	key := fmt.Sprintf("hull%d", len(t.hulls)-1)
	tris := make([][3]int32, 0, 2*h.NumFaces())
	for _, tr := range h.Triangles() {
		tris = append(tris, [3]int32{int32(tr[0]), int32(tr[1]), int32(tr[2])})
	}
	return t.add(key, h.Vertices(), tris)
}

// WriteScene writes dir/scene.json.
func WriteScene(dir string, sc SceneJSON) error {
	data, err := json.MarshalIndent(sc, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "scene.json"), append(data, '\n'), 0o644)
	}
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// ReadScene reads dir/scene.json.
func ReadScene(dir string) (SceneJSON, error) {
	var sc SceneJSON
	path := filepath.Join(dir, "scene.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return sc, fmt.Errorf("record: %s is not a run directory (it has no scene.json); make one with \"stiction run SCENE --out %s\"", dir, dir)
	}
	if err != nil {
		return sc, fmt.Errorf("record: %w", err)
	}
	if err := json.Unmarshal(data, &sc); err != nil {
		return sc, fmt.Errorf("record: %s: %w", path, err)
	}
	return sc, nil
}
