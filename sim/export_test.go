package sim

// SetTreeFactor turns the tree factor of branched trees' free-motion
// blocks on or off for the simulators made afterwards and returns a
// function that restores the previous setting.
func SetTreeFactor(on bool) (restore func()) {
	old := treeFactor
	treeFactor = on
	return func() { treeFactor = old }
}
