package sim

import (
	"errors"
	"fmt"
	"testing"
)

// TestStageErrorAsBefore checks stageError against solveStage's former
// fmt.Errorf forms: the same text, the cause wrapped.
func TestStageErrorAsBefore(t *testing.T) {
	cause := errors.New("cause")
	sim := &Simulator{}
	for _, step := range []int{0, 7} {
		sim.step = step
		for i := range 4 {
			got := sim.stageError(i, "", cause)
			want := fmt.Errorf("sim: step %d: RK4 stage %d: %w", step+1, i, cause)
			if got.Error() != want.Error() || !errors.Is(got, cause) {
				t.Fatalf("stageError(%d, \"\") = %q, want %q wrapping cause", i, got, want)
			}
			got = sim.stageError(i, "constraint solver: ", cause)
			want = fmt.Errorf("sim: step %d: RK4 stage %d: constraint solver: %w", step+1, i, cause)
			if got.Error() != want.Error() || !errors.Is(got, cause) {
				t.Fatalf("stageError(%d, solver) = %q, want %q wrapping cause", i, got, want)
			}
		}
	}
}
