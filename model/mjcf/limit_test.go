package mjcf

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestLimitStartedOutsideMuJoCo: a hinge (a 1 kg point 1 m from the axis,
// no gravity) with range [−0.5, 0.5] started at 0.6 rad from a keyframe:
// solreflimit and solimplimit make the limit MuJoCo's soft constraint, and
// the trajectory is MuJoCo 2.2.2's (mj_step on the same file) to 1e-9,
// with the default solreflimit and solimplimit at δt = 1 ms and 10 ms
// (it leaves the bound at 1.8558 and 2.5 rad/s, not launched) and with
// solreflimit 0.05 0.8, solimplimit 0.8 0.9 0.01 0.3 3.
func TestLimitStartedOutsideMuJoCo(t *testing.T) {
	type sample struct {
		n    int
		q, v float64
	}
	for _, c := range []struct {
		dt   float64
		attr string
		mj   []sample
	}{
		{1e-3, "", []sample{{1, 0.59975, -0.25}, {5, 0.596733313689834, -1.01306959532227}, {20, 0.572023300548463, -1.85581288233508}, {40, 0.534907042901762, -1.85581288233508}}},
		{1e-2, "", []sample{{1, 0.575, -2.5}, {3, 0.525, -2.5}}},
		{1e-3, `solreflimit="0.05 0.8" solimplimit="0.8 0.9 0.01 0.3 3"`, []sample{{1, 0.5999375, -0.0625}, {5, 0.599112326044744, -0.287745162302256}, {20, 0.589888949294178, -0.835751854240057}, {40, 0.570071561405855, -1.0624539889906}}},
	} {
		doc := `<mujoco><compiler angle="radian"/><option timestep="` + strconv.FormatFloat(c.dt, 'g', -1, 64) + `" gravity="0 0 0"/>
  <worldbody><body name="arm"><joint name="j" type="hinge" axis="0 1 0" range="-0.5 0.5" limited="true" ` + c.attr + `/>
  <inertial pos="0 0 -1" mass="1" diaginertia="1e-12 1e-12 1e-12"/></body></worldbody>
  <keyframe><key name="out" qpos="0.6"/></keyframe></mujoco>`
		_, s := run(t, doc, "out")
		n := 0
		for _, m := range c.mj {
			for ; n < m.n; n++ {
				if _, err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			q, v := s.State.Q[0], s.State.V[0]
			t.Logf("δt %g %s, step %d: θ %.12f (MuJoCo %.12f), ω %.12f (MuJoCo %.12f)", c.dt, c.attr, m.n, q, m.q, v, m.v)
			if math.Abs(q-m.q) > 1e-9 || math.Abs(v-m.v) > 1e-9 {
				t.Errorf("δt %g %s, step %d: θ %.12g, ω %.12g; MuJoCo %.12g, %.12g", c.dt, c.attr, m.n, q, v, m.q, m.v)
			}
		}
	}
}

// TestBallLimitStartedOutsideMuJoCo: a ball joint with range 0 0.5 (its
// cone) started rotated 0.6 rad about x, no gravity (a 1 kg point 1 m
// below, diaginertia 0.1 0.2 0.3): the cone limit is MuJoCo's soft
// constraint and the joint comes back at MuJoCo's speed. MuJoCo 2.2.2
// leaves the cone at 1.84247 rad/s (step 40 at δt = 1 ms); we at 1.85581,
// +0.7%: MuJoCo's R = (1 − d)/d · w takes for w its approximation
// dof_invweight0, here the mean of the three rotational dofs' inverse
// inertias (1.69, where the row's own J M⁻¹ Jᵀ, which we use, is 1/1.1),
// so its first step is 0.2397 rad/s where ours is 0.25. Within 1%.
func TestBallLimitStartedOutsideMuJoCo(t *testing.T) {
	doc := `<mujoco><compiler angle="radian"/><option timestep="0.001" gravity="0 0 0"/>
<worldbody><body name="arm"><joint name="j" type="ball" range="0 0.5" limited="true"/>
<inertial pos="0 0 -1" mass="1" diaginertia="0.1 0.2 0.3"/></body></worldbody>
<keyframe><key name="out" qpos="0.955336489125606 0.295520206661340 0 0"/></keyframe></mujoco>`
	_, s := run(t, doc, "out")
	const mj = -1.84247445537701 // MuJoCo's ω_x after 40 steps
	for range 40 {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	v := s.State.V[0]
	t.Logf("ω_x after 40 steps %.6f rad/s (MuJoCo %.6f, ratio %.4f), other components %.3g %.3g", v, mj, v/mj, s.State.V[1], s.State.V[2])
	if r := v / mj; r < 0.99 || r > 1.01 || s.State.V[1] != 0 || s.State.V[2] != 0 {
		t.Errorf("ω %v after 40 steps, MuJoCo (%g, 0, 0)", s.State.V, mj)
	}
}

// TestJointMarginImport: a limited joint's margin becomes its limits'
// Margin, from the joint or its default class, in radians for a hinge
// whatever <compiler angle> says (as MuJoCo 2.2.2's compiler, which
// converts only range), for a ball joint's cone too, without a warning; an
// unlimited joint's margin has no effect; a malformed margin is an error
// naming the file, the line and the attribute.
func TestJointMarginImport(t *testing.T) {
	doc := `<mujoco><compiler angle="degree"/>
  <default><joint margin="0.05"/></default>
  <worldbody>
    <body name="a"><joint name="ha" type="hinge" range="-30 30" limited="true"/><geom type="sphere" size="0.1"/>
      <body name="b" pos="0 0 -0.3"><joint name="sb" type="slide" range="-0.1 0.2" limited="true" margin="0.02"/><geom type="sphere" size="0.1"/>
        <body name="c" pos="0 0 -0.3"><joint name="bc" type="ball" range="0 60" limited="true" margin="0.1"/><geom type="sphere" size="0.1"/>
          <body name="d" pos="0 0 -0.3"><joint name="hd" type="hinge" margin="0.3"/><geom type="sphere" size="0.1"/></body>
        </body>
      </body>
    </body>
  </worldbody></mujoco>`
	im, err := Parse("f.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"a": 0.05, "b": 0.02, "c": 0.1}
	for _, b := range im.Scene.Bodies {
		j := b.Joint
		if j == nil {
			continue
		}
		w, limited := want[b.Name]
		switch {
		case !limited && j.Limits != nil:
			t.Errorf("body %s: unlimited joint has limits %+v", b.Name, *j.Limits)
		case limited && (j.Limits == nil || j.Limits.Margin == nil || *j.Limits.Margin != w):
			t.Errorf("body %s: limits %+v, want margin %v", b.Name, j.Limits, w)
		}
	}
	for _, w := range im.Warnings {
		if w.Attribute == "margin" {
			t.Errorf("margin warns: %s", w)
		}
	}
	_, err = Parse("f.xml", []byte(`<mujoco><worldbody><body>
  <joint type="hinge" range="-1 1" limited="true" margin="0.1 x"/><geom type="sphere" size="0.1"/></body></worldbody></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "f.xml:2") || !strings.Contains(err.Error(), "margin") || !strings.Contains(err.Error(), "0.1 x") {
		t.Errorf("malformed margin: error %v, want one naming f.xml:2, margin and its value", err)
	}
}
