package mjcf

import (
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// fluidGeom is a geom with fluidshape="ellipsoid", kept until the bodies'
// masses and the fluid's settings are known.
type fluidGeom struct {
	body  int // scene body index
	shape scene.FluidEllipsoid
}

// fluidShape reads a geom's fluidshape and fluidcoef (MuJoCo 2.2.2's
// ellipsoid fluid model, forces.Fluid.AddEllipsoid) and queues the geom
// when its shape is "ellipsoid": the ellipsoid of MuJoCo's semi-axes
// (mju_geomSemiAxes: a sphere's r r r, a capsule's r r h+r, a cylinder's
// r r h with h its half-length, a box's half-sizes, an ellipsoid's radii)
// at the geom's pose x in the body frame.
func (c *compiler) fluidShape(v view, idx int, sh *scene.Shape, x spatial.Pose) error {
	shape, err := c.keyword(v, "fluidshape", "none", "none", "ellipsoid")
	if err != nil {
		return err
	}
	def := forces.DefaultEllipsoidCoefs
	coef, err := c.floats(v, "fluidcoef", 5, def[:])
	if err != nil {
		return err
	}
	for i, k := range coef {
		if !(k >= 0) {
			return c.r.Errorf(v.src("fluidcoef"), "fluidcoef", "value %d is %g: the coefficients must be ≥ 0", i+1, k)
		}
	}
	if shape != "ellipsoid" {
		return nil
	}
	var semi spatial.Vec3
	f := func(p *float64) float64 { return *p }
	switch sh.Type {
	case "sphere":
		r := f(sh.Radius)
		semi = spatial.Vec3{r, r, r}
	case "capsule":
		r := f(sh.Radius)
		semi = spatial.Vec3{r, r, f(sh.Length)/2 + r}
	case "cylinder":
		r := f(sh.Radius)
		semi = spatial.Vec3{r, r, f(sh.Length) / 2}
	case "box":
		semi = spatial.Vec3(*sh.Size).Scale(0.5)
	case "ellipsoid":
		semi = spatial.Vec3(*sh.Radii)
	default:
		c.r.Warnf(v.src("fluidshape"), "fluidshape", "the ellipsoid fluid model of a %s geom is not supported (ignored)", sh.Type)
		return nil
	}
	k := [5]float64(coef)
	c.fluidGeoms = append(c.fluidGeoms, fluidGeom{body: idx, shape: scene.FluidEllipsoid{
		Pose: *model.PoseToScene(x), SemiAxes: scene.Vec(semi), Coefs: &k}})
	return nil
}

// fluidEllipsoids gives the scene's fluid the queued ellipsoid geoms of
// the moving bodies of mass ≥ 1e-15 (MuJoCo's mj_passive skips lighter
// bodies), when the model has a fluid.
func (c *compiler) fluidEllipsoids() {
	f := c.out.Scene.Fluid
	if f == nil {
		return
	}
	for _, g := range c.fluidGeoms {
		if l := c.out.Links[c.linkIndex(g.body)]; l.Welded || l.Mass < 1e-15 {
			continue
		}
		e := g.shape
		e.Body = c.out.Scene.Bodies[g.body].Name
		f.Ellipsoids = append(f.Ellipsoids, e)
	}
}
