package sim

// SetSparseSymReuse turns on or off the keeping of the sparse path's
// symbolic Hessians across solves (off: rebuilt at every solve), and
// returns a function that restores the previous setting.
func SetSparseSymReuse(on bool) (restore func()) {
	old := sparseSymReuse
	sparseSymReuse = on
	return func() { sparseSymReuse = old }
}
