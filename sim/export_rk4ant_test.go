package sim

import "github.com/stiction-sim/stiction/solver"

// StagePortStats returns the statistics of the last rk4 stage solve that
// went through MuJoCo's port on the pyramid (the stages' pyramidWork), and
// whether the port's stage flag is still set (it must not be, between
// steps).
func StagePortStats(s *Simulator) (st solver.Stats, flagSet bool) {
	return s.ws.mj.staged.pyr.res.Stats, s.ws.pgs.stage
}
