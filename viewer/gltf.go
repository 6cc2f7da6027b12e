package viewer

import (
	"fmt"
	"io"
	"math"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/spatial"
)

// palette holds the body colours, as in the page.
var palette = [...]uint32{0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f}

// zUpToYUp is the rotation (x, y, z, w) of −90° about x, which turns
// Stiction's z-up world into glTF's y-up one.
var zUpToYUp = [4]float64{-math.Sqrt2 / 2, 0, 0, math.Sqrt2 / 2}

// GLTF builds a glTF 2.0 document of run r: a root node (turning z-up into
// y-up) whose children are one node per body, each with one child node and
// mesh per geometry; and one animation, "run", with a translation and a
// rotation channel (linear) per non-fixed body, keyed at the frame times.
func GLTF(r *record.Run) (*gltf.Document, error) {
	if len(r.Frames) == 0 {
		return nil, fmt.Errorf("viewer: glTF export: the run has no frames (trajectory.csv is empty)")
	}
	doc := gltf.NewDocument()
	doc.Asset.Generator = "stiction export"
	root := &gltf.Node{Name: r.Scene.Scene, Rotation: zUpToYUp, Scale: [3]float64{1, 1, 1}}
	doc.Nodes = append(doc.Nodes, root)
	doc.Scenes[0].Nodes = []int{0}
	c, rad := sceneBounds(r.Scene)
	for b, body := range r.Scene.Bodies {
		root.Children = append(root.Children, addBody(doc, b, body, r.Scene.Meshes, r.Frames[0].Poses[b], c, rad))
	}
	addAnimation(doc, r, root.Children)
	return doc, nil
}

// WriteGLB writes run r as a binary glTF (.glb) to w.
func WriteGLB(w io.Writer, r *record.Run) error {
	doc, err := GLTF(r)
	if err != nil {
		return err
	}
	enc := gltf.NewEncoder(w)
	enc.AsBinary = true
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("viewer: glTF export: %w", err)
	}
	return nil
}

func trs(x spatial.Pose) ([3]float64, [4]float64) {
	return x.P, [4]float64{x.R.X, x.R.Y, x.R.Z, x.R.W}
}

// addBody adds the node of body b at pose x, its geometry nodes and meshes
// (its visuals when it has any, else its collision geometries), and
// returns the body node's index.
func addBody(doc *gltf.Document, b int, body record.BodyJSON, meshes []record.MeshJSON, x spatial.Pose, c spatial.Vec3, rad float64) int {
	t, q := trs(x)
	node := &gltf.Node{Name: body.Name, Translation: t, Rotation: q, Scale: [3]float64{1, 1, 1}}
	mat := addMaterial(doc, body, b)
	shapes := body.Geometries
	colors := make([]*[4]float64, len(shapes))
	if len(body.Visuals) > 0 {
		shapes, colors = nil, nil
		for _, v := range body.Visuals {
			shapes, colors = append(shapes, v.GeometryJSON), append(colors, v.Color)
		}
	}
	for k, g := range shapes {
		m := ShapeMesh(g, meshes, body.Pose.Pose(), c, rad)
		if len(m.Indices) == 0 {
			continue
		}
		attrs := gltf.PrimitiveAttributes{
			gltf.POSITION: modeler.WritePosition(doc, m.Positions),
			gltf.NORMAL:   modeler.WriteNormal(doc, m.Normals),
		}
		mk := mat
		if colors[k] != nil {
			mk = colorMaterial(doc, body.Name, *colors[k])
		}
		prim := &gltf.Primitive{Attributes: attrs, Indices: gltf.Index(modeler.WriteIndices(doc, m.Indices)), Material: gltf.Index(mk)}
		doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: fmt.Sprintf("%s/%d", body.Name, k), Primitives: []*gltf.Primitive{prim}})
		gt, gq := trs(g.Pose.Pose())
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: fmt.Sprintf("%s/%s%d", body.Name, g.Shape, k), Mesh: gltf.Index(len(doc.Meshes) - 1),
			Translation: gt, Rotation: gq, Scale: [3]float64{1, 1, 1}})
		node.Children = append(node.Children, len(doc.Nodes)-1)
	}
	doc.Nodes = append(doc.Nodes, node)
	return len(doc.Nodes) - 1
}

// colorMaterial adds a material of the given RGBA colour (blended when it
// is translucent) and returns its index.
func colorMaterial(doc *gltf.Document, name string, rgba [4]float64) int {
	rough, metal := 0.6, 0.0
	m := &gltf.Material{Name: name, PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &rgba, RoughnessFactor: &rough, MetallicFactor: &metal}}
	if rgba[3] < 1 {
		m.AlphaMode = gltf.AlphaBlend
	}
	doc.Materials = append(doc.Materials, m)
	return len(doc.Materials) - 1
}

// addMaterial adds the material of body b: a palette colour for moving
// bodies, grey for fixed ones (translucent unless the body is the ground).
func addMaterial(doc *gltf.Document, body record.BodyJSON, b int) int {
	col := palette[b%len(palette)]
	rgba := [4]float64{float64(col>>16&255) / 255, float64(col>>8&255) / 255, float64(col&255) / 255, 1}
	m := &gltf.Material{Name: body.Name}
	if body.Fixed {
		rgba = [4]float64{0.55, 0.57, 0.6, 1}
		if n := body.Pose.Pose().R.Rotate(spatial.Vec3{0, 0, 1}); n[2] < 0.9 {
			rgba[3], m.AlphaMode = 0.25, gltf.AlphaBlend
		}
	}
	rough, metal := 0.6, 0.0
	m.PBRMetallicRoughness = &gltf.PBRMetallicRoughness{BaseColorFactor: &rgba, RoughnessFactor: &rough, MetallicFactor: &metal}
	doc.Materials = append(doc.Materials, m)
	return len(doc.Materials) - 1
}

// addAnimation adds the animation of the non-fixed bodies, whose nodes are
// nodes[b].
func addAnimation(doc *gltf.Document, r *record.Run, nodes []int) {
	times := make([]float32, len(r.Frames))
	for i, f := range r.Frames {
		times[i] = float32(f.T)
	}
	in := modeler.WriteAccessor(doc, gltf.TargetNone, times)
	doc.Accessors[in].Min, doc.Accessors[in].Max = []float64{float64(times[0])}, []float64{float64(times[len(times)-1])}
	anim := &gltf.Animation{Name: "run"}
	for b, body := range r.Scene.Bodies {
		if body.Fixed {
			continue
		}
		pos, rot := bodyKeys(r.Frames, b)
		for _, ch := range []struct {
			path gltf.TRSProperty
			out  int
		}{{gltf.TRSTranslation, modeler.WriteAccessor(doc, gltf.TargetNone, pos)}, {gltf.TRSRotation, modeler.WriteAccessor(doc, gltf.TargetNone, rot)}} {
			anim.Samplers = append(anim.Samplers, &gltf.AnimationSampler{Input: in, Output: ch.out, Interpolation: gltf.InterpolationLinear})
			anim.Channels = append(anim.Channels, &gltf.AnimationChannel{Sampler: len(anim.Samplers) - 1,
				Target: gltf.AnimationChannelTarget{Node: gltf.Index(nodes[b]), Path: ch.path}})
		}
	}
	if len(anim.Channels) > 0 {
		doc.Animations = append(doc.Animations, anim)
	}
}

// bodyKeys returns body b's keyframes: positions and quaternions (x, y, z,
// w), each quaternion's sign chosen to be nearest the previous one.
func bodyKeys(frames []record.Frame, b int) ([][3]float32, [][4]float32) {
	pos, rot := make([][3]float32, len(frames)), make([][4]float32, len(frames))
	var prev spatial.Quat
	for i, f := range frames {
		x := f.Poses[b]
		q := x.R
		if i > 0 && q.W*prev.W+q.X*prev.X+q.Y*prev.Y+q.Z*prev.Z < 0 {
			q = q.Scale(-1)
		}
		prev = q
		pos[i] = [3]float32{float32(x.P[0]), float32(x.P[1]), float32(x.P[2])}
		rot[i] = [4]float32{float32(q.X), float32(q.Y), float32(q.Z), float32(q.W)}
	}
	return pos, rot
}
