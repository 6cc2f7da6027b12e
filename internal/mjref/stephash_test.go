package mjref

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

var updateStepHashes = flag.Bool("update-step-hashes", false, "rewrite testdata/step_hashes.golden")

// stepHashSteps is the number of steps hashed per model.
const stepHashSteps = 300

// TestStepHashes: the trajectories of the dm_control and Gymnasium models
// of the speed comparison (BenchmarkStepVsMuJoCo: the model's own δt and
// integrator, zero control) are bit-identical to those recorded in
// testdata/step_hashes.golden. For each model it hashes, after each of
// stepHashSteps steps, q, v, the step's solver statistics (status,
// iterations, e_m, e_μ), its energies and contact count, and every
// constraint report (impulses, violation, state, input, activation,
// allowed error). It guards speed work that must not change a bit; a
// change meant to alter results regenerates the file with
//
//	go test ./internal/mjref -run TestStepHashes -update-step-hashes
//
// and says so in its commit. The hashes are amd64's (Go fuses no
// multiply–add there); other architectures skip the comparison.
func TestStepHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("32 models, 300 steps each")
	}
	golden := filepath.Join("testdata", "step_hashes.golden")
	var got strings.Builder
	for _, f := range speedModels() {
		fmt.Fprintf(&got, "%s %s\n", f, stepHash(t, filepath.Join("testdata", f)))
	}
	if *updateStepHashes {
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

// stepHash returns the hash of stepHashSteps steps of the model file at
// path (TestStepHashes), or "load-error" when it does not load.
func stepHash(t *testing.T, path string) string {
	bt, _, err := stiction(path)
	if err != nil {
		return "load-error"
	}
	s, err := sim.New(bt.Model, bt.State, bt.Config)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	h := fnv.New64a()
	var buf [8]byte
	put := func(x float64) {
		b := math.Float64bits(x)
		for i := range buf {
			buf[i] = byte(b >> (8 * i))
		}
		h.Write(buf[:])
	}
	for i := range stepHashSteps {
		st, err := s.Step()
		if err != nil {
			t.Fatalf("%s: step %d: %v", path, i+1, err)
		}
		for _, x := range s.State.Q {
			put(x)
		}
		for _, x := range s.State.V {
			put(x)
		}
		put(float64(st.Status))
		put(float64(st.Iterations))
		put(st.MomentumError)
		put(st.ComplementarityError)
		put(st.KineticEnergy)
		put(st.PotentialEnergy)
		put(float64(st.Contacts))
		put(float64(st.Constraints + 10*st.ActiveConstraints + 100*st.SaturatedConstraints))
		for _, r := range s.ConstraintReports() {
			put(float64(r.Rows))
			for _, x := range r.Impulse {
				put(x)
			}
			put(r.Violation)
			put(float64(r.State))
			put(r.Input)
			put(r.Activation)
			put(r.Allowed)
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}
