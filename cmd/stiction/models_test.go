package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestModelsCommand: stiction models lists every embedded robot model,
// each loaded and built, with counts that agree with the files' own
// descriptions (Drake's link and joint counts, MuJoCo 2.2.2's nbody − 1,
// nv and nu for Menagerie's files), its source and its licence.
func TestModelsCommand(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var out, errb bytes.Buffer
	if code := run([]string{"models"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 21 || !strings.HasPrefix(lines[0], "NAME") {
		t.Fatalf("%d lines, want a header and 20 models:\n%s", len(lines), out.String())
	}
	rows := map[string][]string{}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		rows[f[0]] = f[1:]
	}
	for _, c := range []struct{ uri, format, bodies, dofs, actuators, source, licence string }{
		{"embedded://mujoco_menagerie/kuka_iiwa_14/iiwa14.xml", "MJCF", "8", "7", "7", "google-deepmind/mujoco_menagerie@04674c8d", "BSD-3-Clause:"},
		{"embedded://mujoco_menagerie/kuka_iiwa_14/scene.xml", "MJCF", "8", "7", "7", "google-deepmind/mujoco_menagerie@04674c8d", "BSD-3-Clause:"},
		{"embedded://mujoco_menagerie/wonik_allegro/right_hand.xml", "MJCF", "21", "16", "16", "google-deepmind/mujoco_menagerie@04674c8d", "BSD-2-Clause:"},
		{"embedded://mujoco_menagerie/wonik_allegro/scene_left.xml", "MJCF", "22", "22", "16", "google-deepmind/mujoco_menagerie@04674c8d", "BSD-2-Clause:"},
		{"embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_dense_collision.urdf", "URDF", "11", "7", "7", "RobotLocomotion/models@4723170e", "BSD-3-Clause:"},
		{"embedded://drake_models/iiwa_description/urdf/planar_iiwa14_spheres_dense_elbow_collision.urdf", "URDF", "10", "3", "3", "RobotLocomotion/models@4723170e", "BSD-3-Clause:"},
		{"embedded://drake_models/iiwa_description/urdf/dual_iiwa14_polytope_collision.urdf", "URDF", "21", "14", "14", "RobotLocomotion/models@4723170e", "BSD-3-Clause:"},
		{"embedded://drake_models/iiwa_description/sdf/iiwa14_polytope_collision.sdf", "SDFormat", "8", "7", "7", "RobotLocomotion/models@4723170e", "BSD-3-Clause:"},
		{"embedded://drake_models/allegro_hand_description/urdf/allegro_hand_description_right.urdf", "URDF", "22", "16", "16", "RobotLocomotion/models@4723170e", "BSD-3-Clause"},
		{"embedded://drake_models/allegro_hand_description/sdf/allegro_hand_description_right.sdf", "SDFormat", "17", "16", "16", "RobotLocomotion/models@4723170e", "BSD-3-Clause"},
	} {
		f, ok := rows[c.uri]
		if !ok {
			t.Errorf("%s not listed", c.uri)
			continue
		}
		want := []string{c.format, c.bodies, c.dofs, c.actuators, c.source, c.licence}
		if len(f) < len(want) || strings.Join(f[:len(want)], " ") != strings.Join(want, " ") {
			t.Errorf("%s: %v, want %v", c.uri, f, want)
		}
	}
}
