package sim

// SetIdleSteps turns the idle steps of models that cannot collide
// (Workspace.idle) on or off for the simulators made afterwards and
// returns a function that restores the previous setting.
func SetIdleSteps(on bool) (restore func()) {
	old := idleSteps
	idleSteps = on
	return func() { idleSteps = old }
}

// IdleState reports whether s's model can have no contact
// (Workspace.noContact) and whether its last step was idle.
func IdleState(s *Simulator) (noContact, idle bool) { return s.ws.noContact, s.ws.idle }
