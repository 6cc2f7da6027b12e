package main

import (
	"strings"
	"testing"
)

// TestRunMuJoCoSchemes: --scheme mujoco-euler and --scheme rk4 run; rk4 on
// a scene with contact geometry (the double pendulum over its ground)
// warns once that steps with contacts fall back to mujoco-euler, and
// mujoco-euler does not warn.
func TestRunMuJoCoSchemes(t *testing.T) {
	for _, c := range []struct {
		scheme string
		warns  bool
	}{{"mujoco-euler", false}, {"rk4", true}} {
		code, _, errs := runCLI("run", "double-pendulum", "--scheme", c.scheme, "--duration", "0.05", "--quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.scheme, code, errs)
		}
		n := strings.Count(errs, "scheme rk4 is for contact- and constraint-free models")
		if (n == 1) != c.warns || n > 1 {
			t.Errorf("%s: %d rk4 warnings, want %v: %q", c.scheme, n, c.warns, errs)
		}
	}
}
