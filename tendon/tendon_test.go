package tendon_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/mjcf"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
	"github.com/stiction-sim/stiction/tendon"
)

// arm has hinges and a slide; its tendons run through sites on three
// bodies, wrap over a sphere, a cylinder (tilted) and a cylinder with a
// side site inside it (the inside wrap).
const arm = `<mujoco><worldbody>
  <site name="s0" pos="-.3 0 .05"/><site name="side" pos="0 0 .5"/>
  <geom name="ball" type="sphere" size=".1"/>
  <body name="a" pos=".3 0 0"><joint type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/>
    <geom name="drum" type="cylinder" size=".06 .02" pos=".3 0 0" euler="80 10 0"/>
    <site name="s1" pos=".05 .01 .12"/><site name="in" pos=".3 0 0"/>
    <body name="b" pos=".3 0 0"><joint type="hinge" axis="0 1 .2"/><geom type="capsule" size=".02" fromto="0 0 0 .25 0 0"/><site name="s2" pos=".25 .02 -.05"/>
      <body name="c" pos=".25 0 0"><joint type="slide" axis="1 0 0"/><geom type="sphere" size=".03"/><site name="s3" pos=".05 0 0"/></body></body></body>
  </worldbody>
  <tendon>
    <spatial name="over"><site site="s0"/><geom geom="ball"/><site site="s1"/><geom geom="drum"/><site site="s2"/><site site="s3"/></spatial>
    <spatial name="side"><site site="s0"/><geom geom="ball" sidesite="side"/><site site="s1"/></spatial>
    <spatial name="inside"><site site="s1"/><geom geom="drum" sidesite="in"/><site site="s3"/></spatial>
    <spatial name="pulleys"><site site="s0"/><geom geom="ball"/><site site="s1"/><pulley divisor="2"/><site site="s1"/><geom geom="drum"/><site site="s2"/><pulley divisor="3.5"/><site site="s2"/><site site="s3"/></spatial>
    <spatial name="branch1"><site site="s0"/><geom geom="ball"/><site site="s1"/></spatial>
    <spatial name="branch2"><site site="s1"/><geom geom="drum"/><site site="s2"/></spatial>
    <spatial name="branch3"><site site="s2"/><site site="s3"/></spatial>
  </tendon></mujoco>`

// TestJacobianFiniteDifferences: G v equals the central difference
// (L(q + h v) − L(q − h v)) / 2h at random configurations and directions
// (hinges and a slide: q̇ = v), to 1e-7 relative; and the paths do wrap
// (longer than the straight path through the sites) at some of them.
func TestJacobianFiniteDifferences(t *testing.T) {
	im, m := build(t, "arm.xml", arm)
	if m.NQ != m.NV {
		t.Fatalf("nq %d nv %d: the test needs q̇ = v", m.NQ, m.NV)
	}
	ws := multibody.NewWorkspace(m)
	g, local := make([]float64, m.NV), make([]float64, 3*m.NV)
	q, v, qp := make([]float64, m.NQ), make([]float64, m.NV), make([]float64, m.NQ)
	const h = 1e-6
	wrapped := map[string]int{}
	for k := range 40 {
		for i := range q {
			q[i] = 1.5 * math.Sin(1.7*float64(k)+2.3*float64(i))
			v[i] = math.Cos(0.9*float64(k) + 1.1*float64(i) + 0.4)
		}
		for _, tn := range []string{"over", "side", "inside", "pulleys"} {
			p := scene.TendonPath(m, im.Scene.Tendon(tn))
			ws.Update(q, v)
			l := p.Jacobian(m, ws, g, local)
			if ll := p.Length(ws); ll != l {
				t.Fatalf("Length %v and Jacobian's length %v differ", ll, l)
			}
			if l > straight(ws, p)+1e-9 {
				wrapped[tn]++
			}
			gv := 0.0
			for j := range v {
				gv += g[j] * v[j]
			}
			length := func(s float64) float64 {
				for i := range qp {
					qp[i] = q[i] + s*v[i]
				}
				ws.Update(qp, v)
				return p.Length(ws)
			}
			fd := (length(h) - length(-h)) / (2 * h)
			if math.Abs(fd-gv) > 1e-7*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s at q = %v: G v = %.9g, finite difference %.9g", tn, q, gv, fd)
			}
		}
	}
	t.Logf("configurations (of 40) where each path wraps: %v", wrapped)
	for _, tn := range []string{"over", "side", "inside"} {
		if wrapped[tn] == 0 {
			t.Errorf("%s never wraps: the test does not reach the wrapping code", tn)
		}
	}
}

// TestPulleyBranches: a path of three branches split by pulleys of
// divisors 2 and 3.5 (MuJoCo's mj_tendon) has L = L1 + L2/2 + L3/3.5 and
// G = G1 + G2/2 + G3/3.5, each branch's as a path of its own, to 1e-15
// relative at 40 configurations, wrapped segments included (its Jacobian
// also passes TestJacobianFiniteDifferences).
func TestPulleyBranches(t *testing.T) {
	im, m := build(t, "arm.xml", arm)
	ws := multibody.NewWorkspace(m)
	path := func(n string) *tendon.Path { return scene.TendonPath(m, im.Scene.Tendon(n)) }
	p, branches, div := path("pulleys"), []*tendon.Path{path("branch1"), path("branch2"), path("branch3")}, []float64{1, 2, 3.5}
	if len(p.Pulleys) != 2 {
		t.Fatalf("pulleys %+v, want 2", p.Pulleys)
	}
	g, gb, local := make([]float64, m.NV), make([]float64, m.NV), make([]float64, 3*m.NV)
	want := make([]float64, m.NV)
	q, v := make([]float64, m.NQ), make([]float64, m.NV)
	for k := range 40 {
		for i := range q {
			q[i] = 1.5 * math.Sin(1.3*float64(k)+2.1*float64(i))
		}
		ws.Update(q, v)
		l := p.Jacobian(m, ws, g, local)
		wl := 0.0
		clear(want)
		for i, bp := range branches {
			wl += bp.Jacobian(m, ws, gb, local) / div[i]
			for j := range gb {
				want[j] += gb[j] / div[i]
			}
		}
		if math.Abs(l-wl) > 1e-15*wl {
			t.Errorf("q = %v: L %v, branches give %v", q, l, wl)
		}
		for j := range g {
			if math.Abs(g[j]-want[j]) > 1e-15*math.Max(1, math.Abs(want[j])) {
				t.Errorf("q = %v: G[%d] %v, branches give %v", q, j, g[j], want[j])
			}
		}
	}
}

// build imports the MJCF document doc as file and builds its model.
func build(t *testing.T, file, doc string) (*model.Import, *multibody.Model) {
	t.Helper()
	im, err := mjcf.Parse(file, []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	return im, b.Model
}

// straight returns the length of the straight path through p's sites.
func straight(ws *multibody.Workspace, p *tendon.Path) float64 {
	l := 0.0
	for k := range len(p.Sites) - 1 {
		l += world(ws, p.Sites[k+1]).Sub(world(ws, p.Sites[k])).Norm()
	}
	return l
}

func world(ws *multibody.Workspace, s tendon.Site) spatial.Vec3 {
	if s.Body < 0 {
		return s.Point
	}
	return ws.Pose(s.Body).Apply(s.Point)
}

// crank is MuJoCo's slider_crank.xml reduced to its transmissions: a
// forward slider-crank (slider site on the world), a backward one (slider
// site on the moving child, its axis turning with it) and a broken one
// (rod too short: det ≤ 0 at some configurations).
const crank = `<mujoco><worldbody>
  <site name="slidersite" pos="0 -.1 0" zaxis="1 .5 0"/>
  <body><joint/><geom type="capsule" size=".01" fromto="0 0 0 .2 0 0"/>
    <site name="cranksite" pos=".1 0 0"/><site name="cranksite2" pos=".2 0 0"/>
    <body pos=".15 0 0"><joint/><geom type="capsule" size=".01" fromto="0 -.15 0 0 0 0"/><site name="slidersite2" pos=".02 -.1 0" zaxis="1 2 0"/></body></body>
  <site name="slidersite3" pos="0 .1 0" zaxis="1 .2 0"/>
  <body pos="0 .2 0"><joint/><geom type="capsule" size=".01" fromto="0 0 0 .15 0 0"/><site name="cranksite3" pos=".1 0 0"/></body>
  </worldbody>
  <actuator>
    <motor name="forward" cranksite="cranksite" slidersite="slidersite" cranklength=".08"/>
    <motor name="backward" cranksite="cranksite2" slidersite="slidersite2" cranklength=".06"/>
    <motor name="broken" cranksite="cranksite3" slidersite="slidersite3" cranklength=".05"/>
  </actuator></mujoco>`

// TestSliderCrankFiniteDifferences: a slider-crank's G v equals the
// central difference of its length where the rod reaches the axis
// (det > 0), to 1e-7 relative, at random configurations and directions.
func TestSliderCrankFiniteDifferences(t *testing.T) {
	im, m := build(t, "crank.xml", crank)
	ws := multibody.NewWorkspace(m)
	g, local := make([]float64, m.NV), make([]float64, 3*m.NV)
	q, v, qp := make([]float64, m.NQ), make([]float64, m.NV), make([]float64, m.NQ)
	const h = 1e-6
	checked := map[string]int{}
	for k := range 40 {
		for i := range q {
			q[i] = 2 * math.Sin(1.7*float64(k)+2.3*float64(i))
			v[i] = math.Cos(0.9*float64(k) + 1.1*float64(i) + 0.4)
		}
		for _, a := range im.Scene.Actuators {
			sc := scene.ActuatorSliderCrank(m, &a)
			ws.Update(q, v)
			if !sc.Reaches(ws) {
				continue
			}
			checked[a.Name]++
			sc.Jacobian(m, ws, g, local)
			gv := 0.0
			for j := range v {
				gv += g[j] * v[j]
			}
			length := func(s float64) float64 {
				for i := range qp {
					qp[i] = q[i] + s*v[i]
				}
				ws.Update(qp, v)
				return sc.Jacobian(m, ws, g, local)
			}
			fd := (length(h) - length(-h)) / (2 * h)
			if math.Abs(fd-gv) > 1e-7*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s at q = %v: G v = %.9g, finite difference %.9g", a.Name, q, gv, fd)
			}
		}
	}
	t.Logf("configurations (of 40) checked per slider-crank: %v", checked)
	for _, n := range []string{"forward", "backward"} {
		if checked[n] == 0 {
			t.Errorf("%s: never checked", n)
		}
	}
}

// TestPulleyValidate: Validate refuses a pulley with a divisor ≤ 0 or not
// finite, out of range or leaving a branch of one site, and a wrap on the
// segment that a pulley cuts; it takes a pulley at site 0 (the first
// branch's divisor).
func TestPulleyValidate(t *testing.T) {
	m := &multibody.Model{}
	sites := make([]tendon.Site, 5)
	for i := range sites {
		sites[i] = tendon.Site{Body: -1, Point: spatial.Vec3{float64(i), 0, 0}}
	}
	wraps := make([]*tendon.Wrap, 4)
	wraps[1] = &tendon.Wrap{Body: -1, Frame: spatial.PoseIdentity(), Radius: 0.1}
	for _, c := range []struct {
		pulleys []tendon.Pulley
		wraps   []*tendon.Wrap
		ok      bool
	}{
		{[]tendon.Pulley{{Site: 2, Divisor: 2}}, nil, true},
		{[]tendon.Pulley{{Site: 0, Divisor: 2}, {Site: 2, Divisor: 3}}, nil, true},
		{[]tendon.Pulley{{Site: 2, Divisor: 0}}, nil, false},
		{[]tendon.Pulley{{Site: 2, Divisor: math.Inf(1)}}, nil, false},
		{[]tendon.Pulley{{Site: 1, Divisor: 2}}, nil, false},
		{[]tendon.Pulley{{Site: 4, Divisor: 2}}, nil, false},
		{[]tendon.Pulley{{Site: 2, Divisor: 2}, {Site: 3, Divisor: 2}}, nil, false},
		{[]tendon.Pulley{{Site: 2, Divisor: 2}}, wraps, false},
		{[]tendon.Pulley{{Site: 3, Divisor: 2}}, wraps, true},
	} {
		p := tendon.Path{Sites: sites, Wraps: c.wraps, Pulleys: c.pulleys}
		if err := p.Validate(m); (err == nil) != c.ok {
			t.Errorf("pulleys %+v (wraps %v): error %v, want ok %v", c.pulleys, c.wraps != nil, err, c.ok)
		}
	}
}
