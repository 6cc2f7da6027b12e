package mjcf

import (
	"math/bits"
)

// pairGeomNames returns the geom names that <contact><pair>s refer to:
// such a geom becomes a collision geom even with contype = conaffinity =
// 0, as MuJoCo collides an explicit pair whatever its bits.
func (c *compiler) pairGeomNames() map[string]bool {
	names := map[string]bool{}
	for _, ct := range c.root.All("contact") {
		for _, p := range ct.All("pair") {
			for _, a := range []string{"geom1", "geom2"} {
				for _, at := range p.Attrs {
					if at.Name == a {
						names[at.Value] = true
					}
				}
			}
		}
	}
	return names
}

// pairAttrs are the contact parameters a <pair> may give; the contact of
// the pair uses its two geoms' materials instead.
var pairAttrs = []string{"condim", "friction", "solref", "solreffriction", "solimp", "margin", "gap"}

// pairs reads <contact><pair geom1 geom2>: the two geoms collide whatever
// their contype and conaffinity, as in MuJoCo. When their bits do not
// match, a bit that no geom of the model uses is set in geom1's contype
// and geom2's conaffinity, so that they, and no other geom, collide
// through it. A pair whose bodies are excluded (<exclude>, the parent
// filter, welded bodies) cannot be simulated and warns, as does a pair
// when the model's 32 bits are all used. The pair's own contact
// parameters are not used (warning): the contact has the two geoms'
// materials. Called after the exclusions and before the materials.
func (c *compiler) pairs() error {
	s := c.out.Scene
	used := uint32(0)
	for _, g := range c.pending {
		used |= uint32(g.contype) | uint32(g.conaffinity)
	}
	for _, ct := range c.root.All("contact") {
		for _, p := range ct.All("pair") {
			p.MarkUsed()
			v, err := c.view(p, "pair", "main")
			if err != nil {
				return err
			}
			v.str("name", "")
			var idx [2]int
			for k, a := range []string{"geom1", "geom2"} {
				n, err := c.r.Required(p, a)
				if err != nil {
					return err
				}
				i, ok := c.geomIndex[n]
				if !ok {
					return c.r.Errorf(p, a, "no geom named %q (a pair needs two named geoms; planes and meshes count)", n)
				}
				idx[k] = i
			}
			for _, a := range pairAttrs {
				if src := v.src(a); src != nil {
					v.str(a, "")
					c.r.Warnf(src, a, "a pair's own %s is not used: the contact has its two geoms' materials (docs/MODELS.md)", a)
				}
			}
			g, h := &c.pending[idx[0]], &c.pending[idx[1]]
			a, b := s.Bodies[g.body].Name, s.Bodies[h.body].Name
			if g.body == h.body {
				c.r.Warnf(p, "", "geoms %q and %q are on the same body %q: the pair is not simulated", g.name, h.name, a)
				continue
			}
			if c.out.Links[g.body].Welded && c.out.Links[h.body].Welded {
				c.r.Warnf(p, "", "geoms %q and %q are both on bodies that do not move: the pair is not simulated", g.name, h.name)
				continue
			}
			if c.excludedPair(g.body, h.body) {
				c.r.Warnf(p, "", "bodies %q and %q never collide here (excluded, a body and its parent, or welded together): the pair of geoms %q and %q is not simulated", a, b, g.name, h.name)
				continue
			}
			if g.contype&h.conaffinity != 0 || h.contype&g.conaffinity != 0 {
				continue // they collide already
			}
			if used == math32 {
				c.r.Warnf(p, "", "every contype/conaffinity bit of the model is used: the pair of geoms %q and %q is not simulated", g.name, h.name)
				continue
			}
			bit := uint32(1) << bits.TrailingZeros32(^used)
			used |= bit
			g.contype |= int(bit)
			h.conaffinity |= int(bit)
			ctg, cah := g.contype, h.conaffinity
			s.Bodies[g.body].Collisions[g.index].Contype = &ctg
			s.Bodies[h.body].Collisions[h.index].Conaffinity = &cah
		}
	}
	return nil
}

// math32 is a mask of all 32 collision bits.
const math32 = ^uint32(0)

// excludedPair reports whether the scene never collides scene bodies i
// and j: an exclusion, or a body and its parent.
func (c *compiler) excludedPair(i, j int) bool {
	s := c.out.Scene
	a, b := s.Bodies[i].Name, s.Bodies[j].Name
	if ja, jb := s.Bodies[i].Joint, s.Bodies[j].Joint; (ja != nil && ja.Parent == b) || (jb != nil && jb.Parent == a) {
		return true
	}
	for _, e := range s.Exclude {
		if (e[0] == a && e[1] == b) || (e[0] == b && e[1] == a) {
			return true
		}
	}
	return false
}
