package contact

// Sleep is the sleeping of settled islands (issue 23): an island of trees
// joined by contacts whose every velocity stayed at most Speed in
// magnitude for Steps consecutive steps is frozen (v = 0, q unchanged) and
// left out of collision among its bodies, the dynamics and the solve until
// something wakes it (package sim, sleep.go).
type Sleep struct {
	// Speed is the threshold on every generalized velocity of a tree
	// (m/s for translations, rad/s for rotations), its max norm.
	Speed float64
	// Steps is how many consecutive steps an island's trees must stay at
	// or below Speed before it sleeps; 0 turns sleeping off.
	Steps int
}

// On reports whether sleeping is turned on.
func (s Sleep) On() bool { return s.Steps > 0 }

// The engine's sleeping (EngineParams; scene contact.sleep, whose
// thresholds default to these when it turns sleeping on).
const (
	// SleepByDefault says whether the engine's contact model puts settled
	// islands to sleep: not yet, since the whole acceptance suite has not
	// passed with it on (docs/CONTACT.md). MuJoCo's schemes never sleep.
	SleepByDefault = false
	// DefaultSleepSpeed is Sleep.Speed's default: 1 cm/s, 0.01 rad/s.
	DefaultSleepSpeed = 0.01
	// DefaultSleepSteps is Sleep.Steps' default.
	DefaultSleepSteps = 50
)
