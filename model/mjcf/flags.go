package mjcf

import (
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
)

// flagDefaults are the attributes of <option><flag> with MuJoCo 2.2.2's
// defaults (mjDSBL_* features are enabled, mjENBL_* ones disabled).
var flagDefaults = []struct{ name, def string }{
	{"constraint", "enable"}, {"equality", "enable"}, {"frictionloss", "enable"},
	{"limit", "enable"}, {"contact", "enable"}, {"passive", "enable"},
	{"gravity", "enable"}, {"clampctrl", "enable"}, {"warmstart", "enable"},
	{"filterparent", "enable"}, {"actuation", "enable"}, {"refsafe", "enable"},
	{"sensor", "enable"}, {"override", "disable"}, {"energy", "disable"},
	{"fwdinv", "disable"}, {"sensornoise", "disable"}, {"multiccd", "disable"},
}

// flagUnsupported are the flags whose non-default value changes MuJoCo's
// motion in a way the import cannot reproduce: they warn. The others
// either map onto the scene (applyFlags) or do not change the motion
// (warmstart, energy, fwdinv, sensor, sensornoise: no sensors are
// imported).
var flagUnsupported = map[string]string{
	"clampctrl": "controls are always clamped to ctrlrange",
	"override":  "option's o_margin, o_solref and o_solimp are not used",
}

// readFlags reads the <flag> children of an <option>: each attribute is
// enable or disable; a value other than MuJoCo's default is kept in
// c.flags (applied by applyFlags and by equality).
func (c *compiler) readFlags(e *xmlutil.Element) error {
	for _, f := range e.All("flag") {
		f.MarkUsed()
		for _, d := range flagDefaults {
			if !f.Has(d.name) {
				continue
			}
			val, err := c.r.Keyword(f, d.name, d.def, "enable", "disable")
			if err != nil {
				return err
			}
			if c.flags == nil {
				c.flags = map[string]string{}
			}
			delete(c.flags, d.name)
			if val == d.def {
				continue
			}
			c.flags[d.name] = val
			if why, ok := flagUnsupported[d.name]; ok {
				c.r.Warnf(f, d.name, "%s=%q is not supported (ignored): %s", d.name, val, why)
			}
		}
	}
	return nil
}

// disabled reports whether <flag> turns off a feature: its own flag is
// disable, or (for equality, frictionloss, limit and contact) the whole
// constraint solver is.
func (c *compiler) disabled(name string) bool {
	if c.flags[name] == "disable" {
		return true
	}
	switch name {
	case "equality", "frictionloss", "limit", "contact":
		return c.flags["constraint"] == "disable"
	}
	return false
}

// applyFlags maps the disabled features of <option><flag> onto the scene,
// as MuJoCo's mjDSBL_* flags: gravity → zero gravity; contact → no
// collision geometry (the geoms become visuals) and no exclusions;
// limit → no position or cone limits (effort limits stay, they are not
// constraints; a joint equality is not a limit and stays);
// frictionloss → no joint friction; passive → no joint springs or
// damping and no fluid forces (MuJoCo 2.2.2's Euler still divides by M + h·D, the damping
// matrix: not reproduced); actuation → no actuators (and no keyframe
// controls); refsafe → solref's time constant is not raised to two
// steps (solrefDT). equality is applied where <equality> is read.
func (c *compiler) applyFlags() {
	s := c.out.Scene
	if c.flags["multiccd"] == "enable" {
		on := true
		s.Contact.MultiCCD = &on // MuJoCo's convex collider's extra contacts
	}
	if c.disabled("gravity") {
		s.Gravity = &scene.Vec{}
	}
	if c.disabled("passive") {
		s.Fluid = nil // mj_passive returns before the fluid forces too
	}
	if c.disabled("contact") {
		for i := range s.Bodies {
			b := &s.Bodies[i]
			for _, col := range b.Collisions {
				if col.Shape.Type != "halfspace" {
					b.Visuals = append(b.Visuals, scene.Visual{Name: col.Name, Shape: col.Shape, Pose: col.Pose})
				}
			}
			b.Collisions = nil
		}
		s.Exclude = nil
		for n := range s.Materials {
			delete(s.Materials, n)
		}
	}
	for i := range s.Bodies {
		j := s.Bodies[i].Joint
		if j == nil {
			continue
		}
		if c.disabled("limit") && j.Limits != nil {
			if j.Limits.Effort == nil {
				j.Limits = nil
			} else {
				j.Limits = &scene.Limits{Effort: j.Limits.Effort}
			}
		}
		if c.disabled("frictionloss") {
			j.Friction = nil
		}
		if c.disabled("passive") {
			j.Damping, j.Stiffness = nil, nil
		}
		for k := range j.Parts { // a compound joint's parts (several joints on a body)
			p := &j.Parts[k]
			if c.disabled("limit") {
				p.Limits = nil
			}
			if c.disabled("frictionloss") {
				p.Friction = nil
			}
			if c.disabled("passive") {
				p.Damping, p.Stiffness = nil, nil
			}
		}
	}
	if c.disabled("actuation") {
		s.Actuators = nil
		for k := range s.Keyframes {
			s.Keyframes[k].Controls, s.Keyframes[k].Activations = nil, nil
		}
	}
}

// solrefDT is the time step below whose double solref's time constant is
// raised (MuJoCo's refsafe), 0 when <flag refsafe="disable">.
func (c *compiler) solrefDT() float64 {
	if c.disabled("refsafe") {
		return 0
	}
	return c.dt
}
