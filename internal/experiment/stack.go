package experiment

import (
	"fmt"
	"strings"
)

// SphereStackYAML is Drumwright's Fig. 10 scene: n spheres (r = 5 cm,
// 1000 kg/m³) in mid-air on one vertical line, 1 mm apart and 1 mm above
// the ground, at rest; contact stiffness 1e11 N/m (E = 1e11 Pa), damping
// 1 N·s/m (τd = 1e-11 s), μ = 0.5, h = 10 ms. The spheres are named s0
// (bottom) to s(n−1).
func SphereStackYAML(n int) []byte {
	var b strings.Builder
	b.WriteString("name: drumwright-stack\ndt: 0.01\nduration: 5\n")
	b.WriteString("materials:\n  default: {stiffness: 1e11, dissipation: 1e-11, friction: 0.5}\n")
	b.WriteString("bodies:\n  - name: ground\n    fixed: true\n    shape: {type: halfspace}\n    material: default\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: s%d\n    shape: {type: sphere, radius: 0.05}\n    material: default\n    density: 1000\n    pose: {position: [0, 0, %g]}\n",
			i, 0.051+0.101*float64(i))
	}
	return []byte(b.String())
}
