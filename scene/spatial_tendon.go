package scene

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
	"github.com/stiction-sim/stiction/tendon"
)

// TendonSite is a point of a spatial tendon's path (MuJoCo's <spatial>
// <site>): Point (default the origin) in the frame of Body ("world" for a
// world point). Wrap, when given, is an obstacle that the segment from
// this site to the next one wraps over. Pulley, when given, is MuJoCo's
// <pulley divisor> before this site: the path's branch ends at the
// previous site (no segment joins them) and a new branch starts here,
// whose segments count 1/Pulley of their length (tendon.Pulley).
type TendonSite struct {
	Body   string      `yaml:"body"`
	Point  *Vec        `yaml:"point,omitempty"`
	Wrap   *TendonWrap `yaml:"wrap,omitempty"`
	Pulley *float64    `yaml:"pulley,omitempty"`
}

// TendonWrap is a sphere or an infinite cylinder (along its frame's z
// axis) of radius Radius, with frame Frame in Body's frame, that a spatial
// tendon's segment wraps over by the shortest path (MuJoCo's wrapping
// geom); Side, if given, is the side site (MuJoCo's sidesite): the path
// passes on its side, wrapping from the inside when it is inside the
// circle.
type TendonWrap struct {
	Shape  string      `yaml:"shape"` // sphere or cylinder
	Body   string      `yaml:"body"`
	Frame  *Pose       `yaml:"frame,omitempty"`
	Radius float64     `yaml:"radius"`
	Side   *TendonSite `yaml:"side,omitempty"`
}

// spatialTendon checks a spatial tendon's path (p is the tendon's path).
func (v *validator) spatialTendon(p string, t *Tendon, bodies []Body) {
	if len(t.Path) < 2 {
		v.add(p+".path", "%d sites: give at least two", len(t.Path))
	}
	v.pulleys(p, t)
	for k, s := range t.Path {
		sp := indexPath(p+".path", k)
		v.tendonSite(sp, s, bodies)
		w := s.Wrap
		if w == nil {
			continue
		}
		wp := sp + ".wrap"
		if k == len(t.Path)-1 {
			v.add(wp, "the last site has no next site to wrap towards")
		}
		if w.Shape != "sphere" && w.Shape != "cylinder" {
			v.add(wp+".shape", "%q: want sphere or cylinder", w.Shape)
		}
		if w.Body == "" {
			v.add(wp+".body", "missing (the wrap's body, or world)")
		} else {
			v.bodyRef(wp+".body", w.Body, bodies, true)
		}
		if !(w.Radius > 0) || !finite(w.Radius) {
			v.add(wp+".radius", "%s must be positive and finite", fnum(w.Radius))
		}
		if w.Side != nil {
			if w.Side.Wrap != nil {
				v.add(wp+".side.wrap", "a side site takes no wrap")
			}
			v.tendonSite(wp+".side", *w.Side, bodies)
		}
	}
}

// pulleys checks a spatial tendon's pulleys: divisors positive and
// finite, every branch with at least two sites, and no wrap on the site
// before a pulley (its segment is not part of the path).
func (v *validator) pulleys(p string, t *Tendon) {
	start := 0 // the current branch's first site
	for k, s := range t.Path {
		if s.Pulley == nil {
			continue
		}
		sp := indexPath(p+".path", k) + ".pulley"
		if d := *s.Pulley; !(d > 0) || !finite(d) {
			v.add(sp, "%s must be positive and finite", fnum(d))
		}
		if k == 0 {
			continue
		}
		if k-start < 2 {
			v.add(sp, "the branch before it, from site %d, has %d site: give at least two", start, k-start)
		}
		if t.Path[k-1].Wrap != nil {
			v.add(indexPath(p+".path", k-1)+".wrap", "the site before a pulley ends its branch: it has no segment to wrap")
		}
		start = k
	}
	if n := len(t.Path) - start; start > 0 && n < 2 {
		v.add(indexPath(p+".path", start)+".pulley", "the last branch has %d site: give at least two", n)
	}
}

// tendonSite checks one site.
func (v *validator) tendonSite(p string, s TendonSite, bodies []Body) {
	if s.Body == "" {
		v.add(p+".body", "missing (the site's body, or world)")
	} else {
		v.bodyRef(p+".body", s.Body, bodies, true)
	}
	if s.Point != nil && !spatial.Vec3(*s.Point).IsFinite() {
		v.add(p+".point", "%v must be finite", *s.Point)
	}
}

// TendonPath returns the path of a validated spatial tendon t of the scene
// that model m was built from (nil for a fixed tendon).
func TendonPath(m *multibody.Model, t *Tendon) *tendon.Path {
	if len(t.Path) == 0 {
		return nil
	}
	return tendonPath(m, t)
}

// tendonPath converts a validated spatial tendon's path.
func tendonPath(m *multibody.Model, t *Tendon) *tendon.Path {
	site := func(s TendonSite) tendon.Site { return tendon.Site{Body: sceneBody(m, s.Body), Point: vecOr(s.Point)} }
	p := &tendon.Path{Sites: make([]tendon.Site, len(t.Path))}
	for k, s := range t.Path {
		p.Sites[k] = site(s)
		if s.Pulley != nil {
			p.Pulleys = append(p.Pulleys, tendon.Pulley{Site: k, Divisor: *s.Pulley})
		}
		if s.Wrap == nil || k == len(t.Path)-1 {
			continue
		}
		if p.Wraps == nil {
			p.Wraps = make([]*tendon.Wrap, len(t.Path)-1)
		}
		w := s.Wrap
		p.Wraps[k] = &tendon.Wrap{Body: sceneBody(m, w.Body), Frame: poseOr(w.Frame), Cylinder: w.Shape == "cylinder", Radius: w.Radius}
		if w.Side != nil {
			sd := site(*w.Side)
			p.Wraps[k].Side = &sd
		}
	}
	return p
}

// prefixPath returns a copy of a spatial tendon's path with its body names
// (not the world) passed through pre (an included scene's prefix).
func prefixPath(path []TendonSite, pre func(string) string) []TendonSite {
	if path == nil {
		return nil
	}
	out := make([]TendonSite, len(path))
	name := func(n string) string {
		if n == "" || n == "world" {
			return n
		}
		return pre(n)
	}
	for k, s := range path {
		s.Body = name(s.Body)
		if w := s.Wrap; w != nil {
			wc := *w
			wc.Body = name(wc.Body)
			if wc.Side != nil {
				sd := *wc.Side
				sd.Body = name(sd.Body)
				wc.Side = &sd
			}
			s.Wrap = &wc
		}
		out[k] = s
	}
	return out
}
