package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
	Pose        PoseJSON    `json:"pose"` // in the body frame
}

// BodyJSON is one body in scene.json. Pose is the world pose of a fixed body
// and the initial pose of any other.
type BodyJSON struct {
	Name       string         `json:"name"`
	Fixed      bool           `json:"fixed"`
	Pose       PoseJSON       `json:"pose"`
	Geometries []GeometryJSON `json:"geometries"`
}

// SceneJSON is the content of scene.json: what a viewer needs to draw a run.
type SceneJSON struct {
	Scene       string     `json:"scene"`
	DT          float64    `json:"dt"`
	RecordEvery int        `json:"record_every"`
	Gravity     [3]float64 `json:"gravity"`
	Bodies      []BodyJSON `json:"bodies"`
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
	for _, g := range m.Geometries {
		gj := GeometryJSON{Shape: g.Shape.Kind.String(), Pose: PoseToJSON(g.Pose)}
		switch g.Shape.Kind.String() {
		case "sphere":
			gj.Radius = g.Shape.Radius
		case "capsule", "cylinder":
			gj.Radius, gj.HalfLength = g.Shape.Radius, g.Shape.HalfLength
		case "box":
			he := [3]float64(g.Shape.HalfExtents)
			gj.HalfExtents = &he
		}
		out.Bodies[g.Body].Geometries = append(out.Bodies[g.Body].Geometries, gj)
	}
	return out
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
