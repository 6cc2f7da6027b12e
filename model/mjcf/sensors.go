package mjcf

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// siteSensors are the sensor elements that read a site (site attribute).
var siteSensors = map[string]bool{"gyro": true, "velocimeter": true, "accelerometer": true, "touch": true, "force": true, "torque": true}

// subtreeSensors are the sensor elements that read a body's subtree (body
// attribute).
var subtreeSensors = map[string]bool{"subtreecom": true, "subtreelinvel": true, "subtreeangmom": true}

// frameSensors are the sensor elements that read an object's frame
// (objtype, objname, reftype, refname).
var frameSensors = map[string]bool{"framepos": true, "framequat": true, "framexaxis": true, "frameyaxis": true,
	"framezaxis": true, "framelinvel": true, "frameangvel": true, "framelinacc": true, "frameangacc": true}

// sensors reads a <sensor> section into the scene's sensors, in MuJoCo's
// order. Unsupported sensor types are warnings (the element is ignored);
// noise is ignored with a warning, cutoff clamps as in MuJoCo.
func (c *compiler) sensors(sec *xmlutil.Element) error {
	sec.MarkUsed()
	for _, e := range sec.Children {
		k := len(c.out.Scene.Sensors) + c.skippedSensors
		if !siteSensors[e.Name] && !frameSensors[e.Name] && !subtreeSensors[e.Name] && e.Name != "jointpos" && e.Name != "jointvel" && e.Name != "actuatorfrc" {
			c.r.Warnf(e, "", "sensor <%s> not supported (ignored; its values are not in sensors.csv)", e.Name)
			e.MarkAllUsed()
			c.skippedSensors++
			continue
		}
		e.MarkUsed()
		sn, ok, err := c.sensor(e, k)
		if err != nil {
			return err
		}
		if !ok {
			c.skippedSensors++
			continue
		}
		c.out.Scene.Sensors = append(c.out.Scene.Sensors, sn)
	}
	return nil
}

// sensor reads one supported sensor element, the k-th of the model; ok is
// false when it names something the import does not simulate (a warning).
func (c *compiler) sensor(e *xmlutil.Element, k int) (scene.Sensor, bool, error) {
	name, _ := e.Attr("name")
	if name == "" {
		name = fmt.Sprintf("sensor%d", k)
	}
	sn := scene.Sensor{Name: name, Type: e.Name}
	var err error
	if sn.Cutoff, err = c.r.Float(e, "cutoff", 0); err != nil {
		return sn, false, err
	}
	if sn.Cutoff < 0 {
		return sn, false, c.r.Errorf(e, "cutoff", "want a number ≥ 0")
	}
	if noise, err := c.r.Float(e, "noise", 0); err != nil {
		return sn, false, err
	} else if noise != 0 {
		c.r.Warnf(e, "noise", "sensor noise is not simulated (ignored: the readings are exact)")
	}
	e.Attr("user")
	switch {
	case e.Name == "jointpos" || e.Name == "jointvel":
		jn, err := c.r.Required(e, "joint")
		if err != nil {
			return sn, false, err
		}
		j := c.joints[jn]
		if j == nil {
			return sn, false, c.r.Errorf(e, "joint", "no joint of this name")
		}
		if j.typ != "hinge" && j.typ != "slide" {
			return sn, false, c.r.Errorf(e, "joint", "<%s> needs a hinge or slide joint, %q is %s", e.Name, jn, j.typ)
		}
		sn.Joint = c.out.Scene.Bodies[j.body].Name
		sn.DOF = model.Ptr(j.dof)
	case e.Name == "actuatorfrc":
		an, err := c.r.Required(e, "actuator")
		if err != nil {
			return sn, false, err
		}
		scn, found := c.actuatorByName(an)
		if !found {
			return sn, false, c.r.Errorf(e, "actuator", "no actuator of this name")
		}
		if scn == "" {
			c.r.Warnf(e, "actuator", "actuator %q is not simulated: sensor ignored", an)
			return sn, false, nil
		}
		sn.Actuator = scn
	case subtreeSensors[e.Name]:
		bn, err := c.r.Required(e, "body")
		if err != nil {
			return sn, false, err
		}
		if bn != "world" {
			b, ok := c.bodies[bn]
			if !ok {
				return sn, false, c.r.Errorf(e, "body", "no body of this name")
			}
			sn.Body = c.out.Scene.Bodies[b].Name
		}
	case siteSensors[e.Name]:
		sn2, err := c.siteFrame(e, "site", sn)
		if err != nil {
			return sn, false, err
		}
		sn = sn2
		if e.Name == "touch" {
			st := c.site(mustAttr(e, "site"))
			size := st.Size
			switch st.Type {
			case "sphere":
				size = [3]float64{st.Size[0]}
			case "capsule", "cylinder":
				size = [3]float64{st.Size[0], st.Size[1]}
			}
			sn.Zone = &scene.Zone{Shape: st.Type, Size: scene.Vec(size)}
		}
	default: // frame sensors
		body, x, ok, err := c.object(e, "objtype", "objname", sn.Type)
		if err != nil || !ok {
			return sn, false, err
		}
		sn.Body, sn.Frame = body, model.PoseToScene(x)
		if (e.Has("reftype") || e.Has("refname")) && (e.Name == "framelinacc" || e.Name == "frameangacc") {
			c.r.Warnf(e, "reftype", "<%s> has no reference frame in MuJoCo 2.2.2 (ignored)", e.Name)
			e.Attr("reftype")
			e.Attr("refname")
		} else if e.Has("reftype") || e.Has("refname") {
			rb, rx, ok, err := c.object(e, "reftype", "refname", sn.Type)
			if err != nil || !ok {
				return sn, false, err
			}
			sn.RefBody, sn.RefFrame = rb, model.PoseToScene(rx)
			if sn.RefBody == "" {
				sn.RefBody = "world"
			}
		}
	}
	return sn, true, nil
}

func mustAttr(e *xmlutil.Element, a string) string { v, _ := e.Attr(a); return v }

// site returns the named site (nil if none).
func (c *compiler) site(name string) *model.Site {
	for i := range c.out.Sites {
		if c.out.Sites[i].Name == name {
			return &c.out.Sites[i]
		}
	}
	return nil
}

// siteFrame sets sn's body and frame to the site named by attribute attr.
func (c *compiler) siteFrame(e *xmlutil.Element, attr string, sn scene.Sensor) (scene.Sensor, error) {
	n, err := c.r.Required(e, attr)
	if err != nil {
		return sn, err
	}
	st := c.site(n)
	if st == nil {
		return sn, c.r.Errorf(e, attr, "no site of this name")
	}
	sn.Body, sn.Frame = st.Body, model.PoseToScene(st.Pose)
	return sn, nil
}

// object reads a frame sensor's object (objtype/objname, or
// reftype/refname): its scene body ("" for the world) and its frame in
// that body. MuJoCo's body is the inertial frame (centre of mass, principal
// axes), xbody the body frame. ok is false (with a warning) for objects
// the import does not keep (geom, camera).
func (c *compiler) object(e *xmlutil.Element, typAttr, nameAttr, sensorType string) (string, spatial.Pose, bool, error) {
	typ, err := c.r.Keyword(e, typAttr, "", "body", "xbody", "geom", "site", "camera")
	if err != nil {
		return "", spatial.Pose{}, false, err
	}
	if typ == "" {
		return "", spatial.Pose{}, false, c.r.Errorf(e, typAttr, "missing: want body, xbody, geom, site or camera")
	}
	name, err := c.r.Required(e, nameAttr)
	if err != nil {
		return "", spatial.Pose{}, false, err
	}
	switch typ {
	case "site":
		st := c.site(name)
		if st == nil {
			return "", spatial.Pose{}, false, c.r.Errorf(e, nameAttr, "no site of this name")
		}
		return st.Body, st.Pose, true, nil
	case "body", "xbody":
		if name == "world" {
			return "", spatial.PoseIdentity(), true, nil
		}
		b, ok := c.bodies[name]
		if !ok {
			return "", spatial.Pose{}, false, c.r.Errorf(e, nameAttr, "no body of this name")
		}
		x := spatial.PoseIdentity()
		if typ == "body" {
			l := c.out.Links[c.linkIndex(b)]
			x.P = l.COM
			if sensorType != "framepos" && sensorType != "framelinvel" && sensorType != "frameangvel" && !diagonal(l.Inertia) {
				c.r.Warnf(e, typAttr, "the principal axes of body %q are not its frame's: <%s> reads the body frame's orientation (use objtype=\"xbody\" to say so)", name, sensorType)
			}
		}
		return c.out.Scene.Bodies[b].Name, x, true, nil
	}
	if typ == "geom" {
		if body, x, ok := c.geomFrame(name); ok {
			return body, x, true, nil
		}
		c.r.Warnf(e, nameAttr, "geom %q is not a collision or visual geom of the import (a mesh, or unnamed): sensor ignored", name)
		return "", spatial.Pose{}, false, nil
	}
	c.r.Warnf(e, typAttr, "%s objects are not supported by frame sensors (sensor ignored)", typ)
	return "", spatial.Pose{}, false, nil
}

// geomFrame returns the scene body and the body-frame pose of the named
// primitive geom (collision or visual). Mesh geoms are left out: MuJoCo
// moves a mesh geom's frame to the mesh's inertial frame.
func (c *compiler) geomFrame(name string) (string, spatial.Pose, bool) {
	s := c.out.Scene
	if i, ok := c.geomIndex[name]; ok {
		pg := c.pending[i]
		b := &s.Bodies[pg.body]
		if pg.index < len(b.Collisions) {
			col := b.Collisions[pg.index]
			if col.Shape != nil && col.Shape.Type != "mesh" {
				x := spatial.PoseIdentity()
				if col.Pose != nil {
					x = model.ScenePose(*col.Pose)
				}
				return b.Name, x, true
			}
		}
		return "", spatial.Pose{}, false
	}
	for bi := range s.Bodies {
		b := &s.Bodies[bi]
		for _, v := range b.Visuals {
			if v.Name == name && v.Shape != nil && v.Shape.Type != "mesh" {
				x := spatial.PoseIdentity()
				if v.Pose != nil {
					x = model.ScenePose(*v.Pose)
				}
				return b.Name, x, true
			}
		}
	}
	return "", spatial.Pose{}, false
}

// diagonal reports whether an inertia matrix is diagonal.
func diagonal(m spatial.Mat3) bool {
	const tol = 1e-12
	s := math.Abs(m[0][0]) + math.Abs(m[1][1]) + math.Abs(m[2][2])
	return math.Abs(m[0][1]) <= tol*s && math.Abs(m[0][2]) <= tol*s && math.Abs(m[1][2]) <= tol*s
}

// actuatorByName returns the scene actuator of the MJCF actuator named
// name ("" if it is not simulated) and whether the model has one.
func (c *compiler) actuatorByName(name string) (string, bool) {
	k := 0
	for _, sec := range c.root.All("actuator") {
		for _, a := range sec.Children {
			if n, _ := a.Attr("name"); n == name && k < len(c.ctrl) {
				return c.ctrl[k], true
			}
			k++
		}
	}
	return "", false
}
