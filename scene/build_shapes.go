package scene

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/model/mesh"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// toShape converts a scene shape to a geometry shape; a mesh becomes the
// convex hull of its (scaled) vertices.
func (bb *builder) toShape(s *Shape) (geometry.Shape, error) {
	if s.Type == "mesh" {
		return bb.hull(s)
	}
	if s.Type == "ellipsoid" {
		return newEllipsoid(spatial.Vec3(vecOr(s.Radii)))
	}
	kind, err := geometry.ParseKind(s.Type)
	if err != nil {
		return geometry.Shape{}, err
	}
	f := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	var g geometry.Shape
	switch kind {
	case geometry.HalfSpace:
		g = geometry.NewHalfSpace()
	case geometry.Sphere:
		g = geometry.NewSphere(f(s.Radius))
	case geometry.Box:
		g = geometry.NewBox(spatial.Vec3(vecOr(s.Size)))
	case geometry.Capsule:
		g = geometry.NewCapsule(f(s.Radius), f(s.Length))
	case geometry.Cylinder:
		g = geometry.NewCylinder(f(s.Radius), f(s.Length))
	case geometry.HeightField:
		return heightField(s)
	default:
		return g, fmt.Errorf("shape type %q is not a collision shape", s.Type)
	}
	return g, g.Validate()
}

// meshPath resolves a mesh file name against the scene's directory.
func (bb *builder) meshPath(file string) string {
	if filepath.IsAbs(file) || bb.s.Dir == "" {
		return file
	}
	return filepath.Join(bb.s.Dir, file)
}

// scaled returns the mesh of a mesh shape, scaled, and a key naming the
// file and scale.
func (bb *builder) scaled(s *Shape) (*mesh.Mesh, string, error) {
	if s.Vertices != nil {
		return vertexMesh(s)
	}
	path := bb.meshPath(s.File)
	m, err := bb.meshes.Load(path)
	if err != nil {
		return nil, "", err
	}
	sc := spatial.Vec3{1, 1, 1}
	if s.Scale != nil {
		sc = spatial.Vec3(*s.Scale)
	}
	key := path
	if sc != (spatial.Vec3{1, 1, 1}) {
		key += "@" + strconv.FormatFloat(sc[0], 'g', -1, 64) + "," + strconv.FormatFloat(sc[1], 'g', -1, 64) + "," + strconv.FormatFloat(sc[2], 'g', -1, 64)
		m = m.Transformed(sc, spatial.PoseIdentity())
	}
	return m, key, nil
}

// VertexMesh returns the mesh of a shape given by vertices: the triangles
// of the convex hull of its (scaled) points.
func VertexMesh(s *Shape) (*mesh.Mesh, error) {
	m, _, err := vertexMesh(s)
	return m, err
}

// vertexMesh returns VertexMesh's mesh and a key naming the points.
func vertexMesh(s *Shape) (*mesh.Mesh, string, error) {
	sc := spatial.Vec3{1, 1, 1}
	if s.Scale != nil {
		sc = spatial.Vec3(*s.Scale)
	}
	pts := make([]spatial.Vec3, len(s.Vertices))
	h := fnv.New64a()
	for i, v := range s.Vertices {
		pts[i] = spatial.Vec3{v[0] * sc[0], v[1] * sc[1], v[2] * sc[2]}
		for _, x := range pts[i] {
			binary.Write(h, binary.LittleEndian, x)
		}
	}
	g, err := geometry.NewConvexHull(pts)
	if err != nil {
		return nil, "", fmt.Errorf("vertices: convex hull: %w", err)
	}
	m := &mesh.Mesh{Vertices: g.Hull.Vertices()}
	for _, t := range g.Hull.Triangles() {
		m.Triangles = append(m.Triangles, [3]int32{int32(t[0]), int32(t[1]), int32(t[2])})
	}
	return m, fmt.Sprintf("vertices:%016x", h.Sum64()), nil
}

// hull returns the convex hull of a mesh shape, built once per file and
// scale.
func (bb *builder) hull(s *Shape) (geometry.Shape, error) {
	m, key, err := bb.scaled(s)
	if err != nil {
		return geometry.Shape{}, err
	}
	if s.MuJoCo != nil {
		key += fmt.Sprintf("|mujoco:%p", s.MuJoCo)
	}
	if h, ok := bb.hulls[key]; ok {
		return h, nil
	}
	h, err := newHull(m.Vertices)
	if err != nil {
		return geometry.Shape{}, fmt.Errorf("%s: convex hull: %w", key, err)
	}
	if s.MuJoCo != nil {
		h.Hull.SetMuJoCo(s.MuJoCo)
	}
	if bb.hulls == nil {
		bb.hulls = map[string]geometry.Shape{}
	}
	bb.hulls[key] = h
	return h, nil
}

// addVisuals adds the body's visual shapes to the model.
func (bb *builder) addVisuals(body int, b *Body) error {
	for i := range b.Visuals {
		v := &b.Visuals[i]
		vis := multibody.Visual{Body: body, Name: v.Name, Pose: poseOr(v.Pose)}
		if v.Shape.Type == "mesh" {
			m, key, err := bb.scaled(v.Shape)
			if err != nil {
				return fmt.Errorf("visuals[%d]: %w", i, err)
			}
			vis.Vertices, vis.Triangles, vis.MeshKey = m.Vertices, m.Triangles, key
			if m.Color != nil {
				vis.Color = *m.Color
			}
		} else {
			g, err := bb.toShape(v.Shape)
			if err != nil {
				return fmt.Errorf("visuals[%d]: %w", i, err)
			}
			vis.Shape = g
		}
		if v.Color != nil {
			vis.Color = *v.Color
		}
		bb.m.Visuals = append(bb.m.Visuals, vis)
	}
	return nil
}

// bodyInertia returns the spatial inertia of a body with mass. A single
// primitive shape without com keeps the original rule (mass properties of
// the shape, or the given inertia, rotated by shape_pose and centred at its
// position). Otherwise the given mass, com and inertia (body frame) are
// used, or the mass properties of the union of the collision shapes at a
// uniform density (density, or mass divided by their total volume).
func bodyInertia(b *Body, geoms []geom) (spatial.SpatialInertia, error) {
	if b.Shape != nil && len(b.Collisions) == 0 && b.COM == nil && geoms[0].shape.Kind <= geometry.Cylinder {
		in, err := inertia(b, geoms[0].shape)
		if err != nil {
			return in, err
		}
		xs := geoms[0].pose
		in.Icom, in.Com = spatial.RotateInertia(xs.R.RotMat(), in.Icom), xs.P
		return in, checkInertia(in)
	}
	if b.Mass != nil && b.Inertia != nil {
		in := spatial.SpatialInertia{Mass: *b.Mass, Icom: givenInertia(b.Inertia)}
		if b.COM != nil {
			in.Com = spatial.Vec3(*b.COM)
		} else if len(geoms) > 0 {
			c, err := composite(geoms, 1)
			if err != nil {
				return in, err
			}
			in.Com = c.Com
		}
		return in, checkInertia(in)
	}
	var density float64
	switch {
	case b.Density != nil:
		density = *b.Density
	case b.Mass != nil:
		unit, err := composite(geoms, 1)
		if err != nil {
			return unit, err
		}
		density = *b.Mass / unit.Mass
	default:
		return spatial.SpatialInertia{}, errors.New("a body with mass needs density or mass")
	}
	in, err := composite(geoms, density)
	if err != nil {
		return in, err
	}
	return in, checkInertia(in)
}

// composite returns the mass properties of the union of the geometries
// (summed, overlaps counted twice) at the given density: masses add,
// the centre of mass is the mass-weighted mean, and each inertia is
// rotated into the body frame and shifted to the common centre of mass by
// the parallel-axis theorem (mechanics notes §0.1).
func composite(geoms []geom, density float64) (spatial.SpatialInertia, error) {
	type part struct {
		m float64
		c spatial.Vec3
		I spatial.Mat3
	}
	parts := make([]part, 0, len(geoms))
	var total float64
	var first spatial.Vec3
	for _, g := range geoms {
		if g.shape.Kind == geometry.HalfSpace || g.shape.Kind == geometry.HeightField {
			continue
		}
		vol, com, unit, err := shapeMassProps(g.shape)
		if err != nil {
			return spatial.SpatialInertia{}, err
		}
		m := density * vol
		c := g.pose.Apply(com)
		parts = append(parts, part{m, c, spatial.RotateInertia(g.pose.R.RotMat(), unit.Scale(m))})
		total += m
		first = first.AddScaled(m, c)
	}
	if !(total > 0) {
		return spatial.SpatialInertia{}, errors.New("no collision shape with a volume to take mass properties from")
	}
	com := first.Scale(1 / total)
	var I spatial.Mat3
	for _, p := range parts {
		d := p.c.Sub(com)
		I = I.Add(p.I).Add(spatial.Identity3().Scale(p.m * d.Dot(d)).Sub(spatial.Outer(d, d).Scale(p.m)))
	}
	return spatial.SpatialInertia{Mass: total, Com: com, Icom: I}, nil
}

// givenInertia converts a validated scene inertia.
func givenInertia(in *Inertia) spatial.Mat3 {
	if in.Diagonal != nil {
		return spatial.Diag3(spatial.Vec3(*in.Diagonal))
	}
	var I spatial.Mat3
	for i, row := range in.Matrix {
		I[i] = row
	}
	return I
}

// inertia returns the spatial inertia of a body with one primitive shape:
// from density and shape, from mass and shape, or from mass and the given
// inertia.
func inertia(b *Body, shape geometry.Shape) (spatial.SpatialInertia, error) {
	var mass float64
	switch {
	case b.Density != nil:
		mass = *b.Density * shape.Volume()
	case b.Mass != nil:
		mass = *b.Mass
	default:
		return spatial.SpatialInertia{}, errors.New("a free body needs density or mass")
	}
	in := spatial.SpatialInertia{Mass: mass}
	if b.Inertia != nil {
		in.Icom = givenInertia(b.Inertia)
		return in, nil
	}
	unit, err := shape.UnitInertia()
	if err != nil {
		return in, err
	}
	in.Icom = unit.Scale(mass)
	return in, nil
}

// checkInertia validates a body's spatial inertia and rejects unphysical
// masses and moments (physical).
func checkInertia(in spatial.SpatialInertia) error {
	if err := in.Validate(); err != nil {
		return err
	}
	return physical(in)
}
