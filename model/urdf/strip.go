package urdf

import (
	"regexp"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
)

var geometryRE = regexp.MustCompile(`(?s)<(visual|collision)\b[^>]*/>|<(visual)\b.*?</visual>|<(collision)\b.*?</collision>`)

// StripGeometry returns the URDF document in data without its <visual>
// and <collision> elements: what the mass matrix and the bias depend on,
// without the mesh files. Reference comparisons (internal/dartref) load
// both sides from it.
func StripGeometry(data []byte) []byte {
	return geometryRE.ReplaceAll(data, nil)
}

// StrippedModel imports the URDF file at path without its geometry
// (StripGeometry) and builds its model.
func StrippedModel(path string) (*scene.Built, error) {
	data, err := xmlutil.ReadFile(path)
	if err != nil {
		return nil, err
	}
	im, err := Parse(path, StripGeometry(data), model.Options{})
	if err != nil {
		return nil, err
	}
	return scene.Build(im.Scene)
}
