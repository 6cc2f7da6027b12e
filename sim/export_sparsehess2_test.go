package sim

// SetSparseSymReuse turns on or off the keeping of the sparse path's
// symbolic Hessians across solves (off: rebuilt at every solve), and
// returns a function that restores the previous setting.
func SetSparseSymReuse(on bool) (restore func()) {
	old := sparseSymReuse
	sparseSymReuse = on
	return func() { sparseSymReuse = old }
}

// SetHpatInGather turns gatherSplit's marking of M's lower non-zeros in
// H's pattern on or off (off: hessPattern marks them) and returns a
// function that restores it.
func SetHpatInGather(on bool) (restore func()) {
	old := hpatInGather
	hpatInGather = on
	return func() { hpatInGather = old }
}

// CountHpatInGather makes every hessPattern that takes M's part from
// gatherSplit's marks compare it with hessPattern's own scan of M, and
// returns a function that restores the hook and reports how many were
// compared and how many differed.
func CountHpatInGather() (done func() (checked, differ int)) {
	var checked, differ int
	old := hpatVerify
	hpatVerify = func(nw *newtonWork) {
		got := append([]byte(nil), nw.sp.hpat...)
		nw.hessPatternM()
		checked++
		if string(got) != string(nw.sp.hpat) {
			differ++
		}
	}
	return func() (int, int) {
		hpatVerify = old
		return checked, differ
	}
}
