package main

import (
	"strings"
	"testing"
)

// TestRunMuJoCoSchemes: --scheme mujoco-euler and --scheme rk4 run, and
// neither warns on a scene with contact geometry (the double pendulum over
// its ground): rk4 solves contacts at its stages (sim.RK4) and warns only
// with attachments or prescribed motions.
func TestRunMuJoCoSchemes(t *testing.T) {
	for _, c := range []struct {
		scheme string
		warns  bool
	}{{"mujoco-euler", false}, {"rk4", false}} {
		code, _, errs := runCLI("run", "double-pendulum", "--scheme", c.scheme, "--duration", "0.05", "--quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.scheme, code, errs)
		}
		n := strings.Count(errs, "scheme rk4 cannot solve contacts and constraints at its stages")
		if (n == 1) != c.warns || n > 1 {
			t.Errorf("%s: %d rk4 warnings, want %v: %q", c.scheme, n, c.warns, errs)
		}
	}
}
