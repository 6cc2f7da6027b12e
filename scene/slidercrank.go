package scene

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
	"github.com/stiction-sim/stiction/tendon"
)

// SliderCrank is an actuator's slider-crank transmission (MuJoCo's
// cranksite, slidersite, cranklength): a rod of length RodLength joins the
// crank point to a point that slides along the slider's axis; the
// actuator's length is the slider point's position along the axis
// (package tendon, SliderCrank).
type SliderCrank struct {
	Crank  TendonSite `yaml:"crank"`  // the crank point (body and point)
	Slider TendonSite `yaml:"slider"` // the slider point
	// Axis is the slide direction in the slider body's frame (normalized;
	// MuJoCo: the slider site's z axis).
	Axis      Vec     `yaml:"axis"`
	RodLength float64 `yaml:"rod_length"`
}

// sliderCrank checks an actuator's slider-crank (p is its path).
func (v *validator) sliderCrank(p string, sc *SliderCrank, bodies []Body) {
	for _, s := range []struct {
		n    string
		site TendonSite
	}{{"crank", sc.Crank}, {"slider", sc.Slider}} {
		if s.site.Wrap != nil {
			v.add(p+"."+s.n+".wrap", "a slider-crank point takes no wrap")
		}
		v.tendonSite(p+"."+s.n, s.site, bodies)
	}
	if n := spatial.Vec3(sc.Axis).Norm(); !(n > 1e-12) || !finite(n) {
		v.add(p+".axis", "%v must be a finite non-zero vector", sc.Axis)
	}
	if !(sc.RodLength > 0) || !finite(sc.RodLength) {
		v.add(p+".rod_length", "%s must be positive and finite", fnum(sc.RodLength))
	}
}

// sliderCrankOf converts a validated slider-crank.
func sliderCrankOf(m *multibody.Model, sc *SliderCrank) *tendon.SliderCrank {
	site := func(s TendonSite) tendon.Site { return tendon.Site{Body: sceneBody(m, s.Body), Point: vecOr(s.Point)} }
	ax, _ := spatial.Vec3(sc.Axis).Normalize()
	return &tendon.SliderCrank{Crank: site(sc.Crank), Slider: site(sc.Slider), Axis: ax, Rod: sc.RodLength}
}

// ActuatorSliderCrank returns the slider-crank of a validated actuator a
// of the scene that model m was built from (nil if it has none).
func ActuatorSliderCrank(m *multibody.Model, a *Actuator) *tendon.SliderCrank {
	if a.SliderCrank == nil {
		return nil
	}
	return sliderCrankOf(m, a.SliderCrank)
}

// SiteWrench is an actuator's site transmission (MuJoCo's site= without
// refsite): the actuator's force f applies the wrench (f·force, f·torque)
// at the site, both given in the site body's frame; its length is 0
// (package tendon, SiteWrench).
type SiteWrench struct {
	Site   TendonSite `yaml:"site"` // the site (body and point)
	Force  Vec        `yaml:"force,omitempty"`
	Torque Vec        `yaml:"torque,omitempty"`
}

// siteWrench checks an actuator's site wrench (p is its path).
func (v *validator) siteWrench(p string, sw *SiteWrench, bodies []Body) {
	if sw.Site.Wrap != nil || sw.Site.Pulley != nil {
		v.add(p+".site", "a site wrench's site takes no wrap or pulley")
	}
	v.tendonSite(p+".site", sw.Site, bodies)
	n := spatial.Vec3(sw.Force).Norm() + spatial.Vec3(sw.Torque).Norm()
	if !(n > 0) || !finite(n) {
		v.add(p, "force %v and torque %v: need finite values, not both zero", sw.Force, sw.Torque)
	}
}

// siteWrenchOf converts a validated site wrench.
func siteWrenchOf(m *multibody.Model, sw *SiteWrench) *tendon.SiteWrench {
	return &tendon.SiteWrench{Site: tendon.Site{Body: sceneBody(m, sw.Site.Body), Point: vecOr(sw.Site.Point)},
		Force: spatial.Vec3(sw.Force), Torque: spatial.Vec3(sw.Torque)}
}
