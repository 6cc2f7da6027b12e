package sim_test

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

var updateHashes = flag.Bool("update-hashes", false, "rewrite testdata/trajectories.golden from this build's trajectories")

// hashedScenes are the trajectories whose bits TestTrajectoryHashes pins:
// the clutter drop (speculative, chained and anchored contacts, gap
// correction, load-aware regularization), the same with rolling and spin
// friction (their angular anchors), a slide (anchors dragged at their cap),
// a jittered stack (long-lived anchored contacts), a box held by friction on
// a slope, and Drumwright's incline.
var hashedScenes = []struct {
	name  string
	steps int
	build func(t testing.TB) *sim.Simulator
}{
	{"clutter-2s", 200, func(t testing.TB) *sim.Simulator { s, _ := load(t, "clutter", "duration=2"); return s }},
	{"clutter-rollspin-1s", 100, func(t testing.TB) *sim.Simulator {
		s, _ := load(t, "clutter", "duration=1", "materials.default.rolling_friction=0.001", "materials.default.spin_friction=0.001")
		return s
	}},
	{"slide-0.6s", 60, func(t testing.TB) *sim.Simulator {
		s, _ := build(t, slideScene(2, 100, 17, 0.5, 0.01, 0.6, ""))
		return s
	}},
	{"stack10-1s", 100, func(t testing.TB) *sim.Simulator {
		s, _ := build(t, stackScene(10, 1, 0.002, 1, 0.01, 1, ""))
		return s
	}},
	{"slope-hold-1s", 100, func(t testing.TB) *sim.Simulator {
		s, _ := build(t, slopeScene(20, 1.05*math.Tan(20*math.Pi/180), 0.01, 1, "", ""))
		return s
	}},
	{"incline-1s", -1, func(t testing.TB) *sim.Simulator { s, _ := load(t, "incline", "duration=1"); return s }},
}

// trajectoryHash runs n steps (n < 0: the scene's own duration, given by
// steps) and returns an FNV-1a hash of the bits of t, q and v after every
// step.
func trajectoryHash(t testing.TB, s *sim.Simulator, n int) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(x float64) {
		b := math.Float64bits(x)
		for i := range buf {
			buf[i] = byte(b >> (8 * i))
		}
		h.Write(buf[:])
	}
	for range n {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		put(s.State.T)
		for _, x := range s.State.Q {
			put(x)
		}
		for _, x := range s.State.V {
			put(x)
		}
	}
	return h.Sum64()
}

// TestTrajectoryHashes: the trajectories of a few contact scenes are
// bit-identical to those recorded in testdata/trajectories.golden. It
// guards refactorings that must not change a single bit (the contact
// memory's move into package contact was checked with it). A change
// meant to alter the physics regenerates the file with
// `go test ./sim -run TestTrajectoryHashes -update-hashes` and says so in
// its commit. The hashes are those of amd64, where Go fuses no
// multiply–add; other architectures skip the comparison.
func TestTrajectoryHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("clutter for 2 s")
	}
	golden := filepath.Join("testdata", "trajectories.golden")
	var got strings.Builder
	for _, c := range hashedScenes {
		s := c.build(t)
		n := c.steps
		if n < 0 {
			n = int(math.Round(1 / s.Config().DT))
		}
		fmt.Fprintf(&got, "%s %d %016x\n", c.name, n, trajectoryHash(t, s, n))
	}
	if *updateHashes {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if runtime.GOARCH != "amd64" {
		t.Skipf("hashes recorded on amd64; this is %s", runtime.GOARCH)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("trajectories changed:\n got:\n%s want:\n%s", got.String(), want)
	}
}
