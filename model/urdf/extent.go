package urdf

import (
	"math"

	"github.com/stiction-sim/stiction/model/mesh"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// extent returns the radius about the link origin of a sphere that holds
// every collision shape of b (the visuals when b has none), 0 when it has
// no shape whose size is known.
func extent(b *scene.Body) float64 {
	r := 0.0
	for _, c := range b.Collisions {
		r = math.Max(r, placedRadius(c.Shape, c.Pose))
	}
	if r == 0 {
		for _, v := range b.Visuals {
			r = math.Max(r, placedRadius(v.Shape, v.Pose))
		}
	}
	return r
}

// placedRadius is the distance of a shape's origin from the link origin
// plus the shape's own radius about its origin (shapeRadius).
func placedRadius(sh *scene.Shape, p *scene.Pose) float64 {
	r := shapeRadius(sh)
	if r == 0 {
		return 0
	}
	if p != nil && p.Position != nil {
		r += spatial.Vec3(*p.Position).Norm()
	}
	return r
}

// shapeRadius is the radius of the smallest sphere about a shape's origin
// that holds it; 0 when its size is not known (a mesh that cannot be read
// is left to the scene builder's error).
func shapeRadius(sh *scene.Shape) float64 {
	f := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	switch sh.Type {
	case "sphere":
		return f(sh.Radius)
	case "box":
		if sh.Size != nil {
			return spatial.Vec3(*sh.Size).Norm() / 2
		}
	case "cylinder":
		return math.Hypot(f(sh.Radius), f(sh.Length)/2)
	case "capsule":
		return f(sh.Radius) + f(sh.Length)/2
	case "ellipsoid":
		if sh.Radii != nil {
			return max(sh.Radii[0], sh.Radii[1], sh.Radii[2])
		}
	case "mesh":
		return meshRadius(sh)
	}
	return 0
}

// meshRadius is the largest distance of a (scaled) mesh vertex from the
// mesh origin.
func meshRadius(sh *scene.Shape) float64 {
	s := spatial.Vec3{1, 1, 1}
	if sh.Scale != nil {
		s = spatial.Vec3(*sh.Scale)
	}
	vs := make([]spatial.Vec3, 0, len(sh.Vertices))
	for _, v := range sh.Vertices {
		vs = append(vs, spatial.Vec3(v))
	}
	if sh.File != "" {
		m, err := mesh.LoadShared(sh.File)
		if err != nil {
			return 0
		}
		vs = m.Vertices
	}
	r := 0.0
	for _, v := range vs {
		r = math.Max(r, spatial.Vec3{v[0] * s[0], v[1] * s[1], v[2] * s[2]}.Norm())
	}
	return r
}
