package sim

// SetSparseNV sets the number of velocities from which MuJoCo's Newton and
// CG port takes MuJoCo's sparse path (mjSparseNV by default) for the solves
// that follow, and returns a function that restores the previous setting.
func SetSparseNV(nv int) (restore func()) {
	old := sparseFromNV
	sparseFromNV = nv
	return func() { sparseFromNV = old }
}
