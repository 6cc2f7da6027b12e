package scene

import (
	"os"
	"strings"
	"testing"
)

// TestDocsExample checks that the complete example in docs/SCENES.md is a
// valid scene.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/SCENES.md")
	if err != nil {
		t.Skipf("docs not found: %v", err)
	}
	_, rest, ok := strings.Cut(string(doc), "## A complete example")
	if !ok {
		t.Fatal("no complete example section")
	}
	_, rest, ok = strings.Cut(rest, "```yaml\n")
	if !ok {
		t.Fatal("no yaml block in the example section")
	}
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("unterminated yaml block")
	}
	s, err := Parse("SCENES.md", []byte(example), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Bodies) != 4 || len(s.Materials) != 2 {
		t.Errorf("example: %d bodies, %d materials", len(s.Bodies), len(s.Materials))
	}
	for _, set := range []string{
		"dt=0.001", "contact.beta=0.5", "materials.steel.friction=0.375", "bodies.ball.density=2000",
		"bodies.1.density=2000", "bodies[1].density=2000", "bodies.brick.pose.position=[0, 0, 1]",
		"bodies.brick.velocity.linear=[1,0,0]", "gravity=[0,0,-1.62]",
		"bodies.ball.shape={type: box, size: [0.1, 0.1, 0.1]}", "solver={line_search: backtracking, max_iterations: 50}",
		"contact.beta=",
	} {
		if _, err := Parse("SCENES.md", []byte(example), []string{set}); err != nil {
			t.Errorf("--set %s: %v", set, err)
		}
	}
}
