// Package dartref computes reference multibody quantities with DART, an
// independent rigid-body dynamics library, for Stiction's tests: a URDF's
// degrees of freedom, total mass, mass matrix M(q) and bias C(q, v) + g(q)
// (DART's getCoriolisAndGravityForces), from DART's own URDF loader.
//
// DART is a test-only reference: it runs as a small Python script (embedded,
// dartref.py) under Debian's python3-dartpy (DART 6.12) and python3-numpy,
// which .ci/run installs; the engine itself stays pure Go. Where dartpy is
// missing, Python reports why and the tests skip.
package dartref

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

//go:embed dartref.py
var script string

// Inertial is a link's mass, centre of mass (link frame) and rotational
// inertia about the centre of mass (link frame), set on DART's body of that
// name before the query (Stiction's inertia repairs, applied to both sides).
type Inertial struct {
	Mass float64       `json:"mass"`
	COM  [3]float64    `json:"com"`
	I    [3][3]float64 `json:"I"`
}

// State is a configuration and velocity by DART degree-of-freedom name (a
// 1-dof URDF joint's dof has the joint's name); absent dofs are 0.
type State struct {
	Q map[string]float64 `json:"q,omitempty"`
	V map[string]float64 `json:"v,omitempty"`
}

// Result is DART's answer.
type Result struct {
	Dofs   []string `json:"dofs"`
	Mass   float64  `json:"mass"`
	States []struct {
		M    [][]float64 `json:"M"`
		Bias []float64   `json:"bias"` // C(q, v) + g(q), DART's sign
	} `json:"states"`
	Error string `json:"error"`
}

var (
	pyOnce sync.Once
	pyPath string
	pyErr  error
)

// Python returns a Python interpreter that imports dartpy, or an error
// saying why there is none. Debian's dartpy lives in the system Python
// (/usr/bin/python3), which is tried first.
func Python() (string, error) {
	pyOnce.Do(func() {
		var why []string
		for _, p := range []string{"/usr/bin/python3", "python3"} {
			out, err := exec.Command(p, "-c", "import dartpy, numpy").CombinedOutput()
			if err == nil {
				pyPath = p
				return
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			why = append(why, fmt.Sprintf("%s: %s", p, lines[len(lines)-1]))
		}
		pyErr = fmt.Errorf("dartpy is not available (apt-get install python3-dartpy python3-numpy): %s", strings.Join(why, "; "))
	})
	return pyPath, pyErr
}

// Query loads the URDF document urdf in DART (root welded to the world),
// sets the given links' inertials and returns M and the bias at states.
func Query(urdf []byte, inertia map[string]Inertial, states []State) (*Result, error) {
	py, err := Python()
	if err != nil {
		return nil, err
	}
	req, err := json.Marshal(map[string]any{"urdf": string(urdf), "inertia": inertia, "states": states})
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(req)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("dartref: %v: %s", err, lastLines(stderr.String(), 5))
	}
	// DART prints its own warnings on stdout: the answer is the marked line.
	for _, line := range strings.Split(stdout.String(), "\n") {
		if j, ok := strings.CutPrefix(line, "DARTREF_JSON "); ok {
			var r Result
			if err := json.Unmarshal([]byte(j), &r); err != nil {
				return nil, fmt.Errorf("dartref: %v", err)
			}
			if r.Error != "" {
				return &r, errors.New("dartref: " + r.Error)
			}
			return &r, nil
		}
	}
	return nil, fmt.Errorf("dartref: no answer from DART: %s", lastLines(stdout.String()+stderr.String(), 5))
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " | ")
}
