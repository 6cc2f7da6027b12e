package mjcf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// TestSolverOption: <option solver iterations tolerance> sets the scene's
// solver of MuJoCo's rows with the file's iterations and tolerance
// (MuJoCo's defaults 100 and 1e-8 when absent): Newton (MuJoCo's default,
// also without <option>) and CG MuJoCo 2.2.2's own Newton and CG
// (mujoco_newton, mujoco_cg), PGS its PGS (mujoco_newton unset); a second
// <option> keeps what the first set; a bad solver name or an iteration
// count < 1 is refused with an error naming the attribute and the value.
func TestSolverOption(t *testing.T) {
	for _, c := range []struct {
		option string
		solver string // Newton, CG or PGS
		iter   int
		tol    float64
	}{
		{``, "Newton", 100, 1e-8},
		{`<option solver="Newton" iterations="50"/>`, "Newton", 50, 1e-8},
		{`<option solver="CG" tolerance="1e-6"/>`, "CG", 100, 1e-6},
		{`<option solver="PGS"/>`, "PGS", 100, 1e-8},
		{`<option solver="PGS" iterations="50" tolerance="1e-10"/>`, "PGS", 50, 1e-10},
		{`<option solver="PGS" iterations="50"/><option timestep="0.01"/>`, "PGS", 50, 1e-8},
		{`<option solver="CG"/><option iterations="20"/>`, "CG", 20, 1e-8},
	} {
		im := parseDoc(t, `<mujoco>`+c.option+`<worldbody><geom type="plane" size="1 1 1"/></worldbody></mujoco>`)
		ct := im.Scene.Contact
		got := "PGS"
		if ct.MuJoCoNewton != nil && *ct.MuJoCoNewton {
			got = "Newton"
			if ct.MuJoCoCG != nil && *ct.MuJoCoCG {
				got = "CG"
			}
		}
		if got != c.solver || ct.PGSIterations == nil || *ct.PGSIterations != c.iter || ct.PGSTolerance == nil || *ct.PGSTolerance != c.tol {
			t.Errorf("%q: %s, %v iterations, tolerance %v; want %s, %d, %g", c.option, got, ct.PGSIterations, ct.PGSTolerance, c.solver, c.iter, c.tol)
		}
	}
	for _, bad := range []struct{ option, attr, value string }{
		{`<option solver="Jacobi"/>`, "solver", "Jacobi"},
		{`<option solver="PGS" iterations="0"/>`, "iterations", "0"},
	} {
		_, err := Parse("f.xml", []byte(`<mujoco>`+bad.option+`<worldbody/></mujoco>`), model.Options{})
		if err == nil || !strings.Contains(err.Error(), bad.attr) || !strings.Contains(err.Error(), bad.value) {
			t.Errorf("%s: error %v, want one naming %s and %s", bad.option, err, bad.attr, bad.value)
		}
	}
}

// TestSolverPortEverySize: the port of MuJoCo's Newton and CG is the
// default at every size (sim takes MuJoCo's sparse path from 60
// velocities, as MuJoCo does: sim.MuJoCoSparse), with the file's solver,
// iterations and tolerance; mujoco_newton: false set afterwards (`--set
// contact.mujoco_newton=false`) returns to the converged solve. PGS is
// left as it is at any size.
func TestSolverPortEverySize(t *testing.T) {
	body := func(i int, joint string) string {
		return fmt.Sprintf(`<body pos="%d 0 1">%s<geom type="sphere" size="0.1"/></body>`, 3*i, joint)
	}
	doc := func(option string, free, hinges int) string {
		var b strings.Builder
		for i := range free {
			b.WriteString(body(i, `<freejoint/>`))
		}
		for i := range hinges {
			b.WriteString(body(free+i, `<joint type="ball"/><body pos="0 0 -0.3"><joint type="hinge"/><geom type="sphere" size="0.1"/></body>`))
		}
		return `<mujoco>` + option + `<worldbody><geom type="plane" size="1 1 1"/>` + b.String() + `</worldbody></mujoco>`
	}
	for _, c := range []struct {
		option      string
		free, balls int // free joints (6 velocities), ball + hinge pairs (4)
		port        bool
	}{
		{``, 9, 1, true},                      // nv 58
		{`<option solver="CG"/>`, 9, 1, true}, // nv 58
		{``, 8, 3, true},                      // nv 60 with ball and hinge joints
		{``, 8, 2, true},                      // nv 56
		{``, 10, 0, true},                     // nv 60
		{`<option solver="CG" iterations="30"/>`, 10, 0, true},
		{``, 500, 0, true}, // nv 3000, composite/particle.xml's size
	} {
		nv := 6*c.free + 4*c.balls
		im := parseDoc(t, doc(c.option, c.free, c.balls))
		ct := im.Scene.Contact
		if ct.MuJoCoNewton == nil || *ct.MuJoCoNewton != c.port || ct.PGSIterations == nil {
			t.Errorf("nv %d %q: mujoco_newton %v, want %v", nv, c.option, ct.MuJoCoNewton, c.port)
			continue
		}
		b, err := scene.Build(im.Scene)
		if err != nil {
			t.Fatal(err)
		}
		if b.Config.Contact.Newton != c.port || !c.port && (b.Config.Contact.PGSIterations != 0 || b.Config.Contact.CG) {
			t.Errorf("nv %d %q: built Newton %v, CG %v, %d PGS iterations; want the port %v", nv, c.option, b.Config.Contact.Newton, b.Config.Contact.CG, b.Config.Contact.PGSIterations, c.port)
		}
		cg := strings.Contains(c.option, "CG")
		if b.Config.Contact.CG != cg || b.Config.Contact.PGSIterations != *ct.PGSIterations {
			t.Errorf("nv %d %q: CG %v, %d iterations; want CG %v, %d", nv, c.option, b.Config.Contact.CG, b.Config.Contact.PGSIterations, cg, *ct.PGSIterations)
		}
		off := false
		im.Scene.Contact.MuJoCoNewton = &off // the user's explicit choice
		if b, err = scene.Build(im.Scene); err != nil {
			t.Fatal(err)
		}
		if b.Config.Contact.Newton || b.Config.Contact.CG || b.Config.Contact.PGSIterations != 0 {
			t.Errorf("nv %d %q with mujoco_newton false: Newton %v, CG %v, %d PGS iterations; want the converged solve", nv, c.option, b.Config.Contact.Newton, b.Config.Contact.CG, b.Config.Contact.PGSIterations)
		}
	}
	im := parseDoc(t, doc(`<option solver="PGS" iterations="20"/>`, 10, 0))
	if ct := im.Scene.Contact; ct.MuJoCoNewton != nil || *ct.PGSIterations != 20 {
		t.Errorf("PGS at nv 60: mujoco_newton %v, %d iterations; want unset, 20", ct.MuJoCoNewton, *ct.PGSIterations)
	}
}
