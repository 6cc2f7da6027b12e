package mjcf

import (
	"slices"
	"testing"
)

// TestParentFilterMuJoCo: MuJoCo's contact filter on weld groups
// (mj_contactFilter, MuJoCo 2.2.2): link's hinge hangs it from base, a box
// welded to the world, which it overlaps by 1 cm; mid is welded to link
// (one rigid group, overlapping it), and tip hinges from mid, overlapping
// both. MuJoCo generates 2 contacts on this file (mj_forward): floor–ball
// and link–base (the parent filter does not apply when a group is the
// world's: a child touches a parent welded to the world); link–mid are
// one group, and tip is filtered against its parent's group (mid and
// link). Stiction's contact pairs are the same two. With <flag
// filterparent="disable"> MuJoCo has 4: tip touches link and mid too (mid
// and link, one weld group, still do not touch); so do we.
func TestParentFilterMuJoCo(t *testing.T) {
	for _, c := range []struct {
		flag string
		want []string
	}{
		{"", []string{"ball–floor", "base–link"}},
		{`<flag filterparent="disable"/>`, []string{"ball–floor", "base–link", "link–tip", "mid–tip"}},
	} {
		parentFilterCase(t, c.flag, c.want)
	}
}

// parentFilterCase runs TestParentFilterMuJoCo's model with the <flag>
// flag and compares its contact pairs with MuJoCo's, want.
func parentFilterCase(t *testing.T, flag string, want []string) {
	doc := `<mujoco><option gravity="0 0 0">` + flag + `</option><worldbody>
 <geom name="floor" type="plane" size="1 1 0.1"/>
 <body name="base" pos="0 0 0.1"><geom name="base" type="box" size="0.1 0.1 0.1"/>
   <body name="link" pos="0 0 0.15"><joint name="j1" type="hinge" axis="0 1 0"/><geom name="link" type="sphere" size="0.06"/>
     <body name="mid" pos="0 0 0.06"><geom name="mid" type="sphere" size="0.05"/>
       <body name="tip" pos="0 0 0.04"><joint name="j2" type="hinge" axis="0 1 0"/><geom name="tip" type="sphere" size="0.05"/></body>
     </body></body></body>
 <body name="free" pos="0.5 0 0.05"><freejoint/><geom name="ball" type="sphere" size="0.06"/></body>
</worldbody></mujoco>`
	b, s := run(t, doc, "")
	if _, err := s.Step(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Contacts() {
		a, c := b.Model.Geometries[p.GeomA].Name, b.Model.Geometries[p.GeomB].Name
		if a > c {
			a, c = c, a
		}
		if pair := a + "–" + c; !slices.Contains(got, pair) {
			got = append(got, pair)
		}
	}
	slices.Sort(got)
	t.Logf("%s: contact pairs %v (MuJoCo 2.2.2: %v)", flag, got, want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: contact pairs %v, MuJoCo's %v", flag, got, want)
	}
}

// TestReacherRuns: dm_control's reacher (suite/reacher.xml, its bodies and
// geoms; its <flag contact="disable"> left out, so contacts are on) stopped
// at step 1 with "sap: malformed problem: R[0] = 0": the finger, welded to
// the hand, touches the hand's capsule (one rigid body), and the arm's
// capsule touches the ground plane and the root cylinder at its hinge's
// axis, where its Delassus block is 0 (the hinge cannot move the point).
// Now the welded pair is never a contact and the arm's null rows carry no
// impulse: the motors turn the arm for 2 s (100 steps of 20 ms) with
// every step converged.
func TestReacherRuns(t *testing.T) {
	doc := `<mujoco model="two-link planar reacher"><option timestep="0.02"/>
  <default><joint type="hinge" axis="0 0 1" damping="0.01"/><motor gear=".05" ctrlrange="-1 1" ctrllimited="true"/></default>
  <worldbody>
    <geom name="ground" type="plane" pos="0 0 0" size=".3 .3 10"/>
    <geom name="wall_x" type="plane" pos="-.3 0 .02" zaxis="1 0 0"  size=".02 .3 .02"/>
    <geom name="root" type="cylinder" fromto="0 0 0 0 0 0.02" size=".011"/>
    <body name="arm" pos="0 0 .01">
      <geom name="arm" type="capsule" fromto="0 0 0 0.12 0 0" size=".01"/>
      <joint name="shoulder"/>
      <body name="hand" pos=".12 0 0">
        <geom name="hand" type="capsule" fromto="0 0 0 0.1 0 0" size=".01"/>
        <joint name="wrist" limited="true" range="-160 160"/>
        <body name="finger" pos=".12 0 0"><geom name="finger" type="sphere" size=".01"/></body>
      </body>
    </body>
    <geom name="target" pos="0 0 .01" type="sphere" size=".05"/>
  </worldbody>
  <actuator><motor name="shoulder" joint="shoulder"/><motor name="wrist" joint="wrist"/></actuator>
  <keyframe><key name="drive" ctrl="1 -1"/></keyframe></mujoco>`
	b, s := run(t, doc, "drive")
	for range 100 {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if !st.NewtonConverged {
			t.Fatalf("step %d did not converge", st.Step)
		}
		for _, p := range s.Contacts() {
			if b.Model.RigidGroup(p.BodyA) == b.Model.RigidGroup(p.BodyB) {
				t.Fatalf("step %d: contact between welded bodies %q and %q", st.Step, b.Model.Bodies[p.BodyA].Name, b.Model.Bodies[p.BodyB].Name)
			}
		}
	}
	t.Logf("after 2 s: shoulder %.4g rad, wrist %.4g rad, %d contacts", s.State.Q[0], s.State.Q[1], len(s.Contacts()))
	if !(s.State.Q[0] > 0.1) {
		t.Errorf("the shoulder motor did not turn the arm: %g rad", s.State.Q[0])
	}
}
