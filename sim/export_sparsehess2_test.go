package sim

// SetSparseSymRebuild has s's sparse path build its symbolic Hessian
// again at every solve instead of keeping the last ones.
func SetSparseSymRebuild(s *Simulator) { s.ws.mjnewton.sp.symRebuild = true }

// SetHpatScan has s's sparse path take M's part of H's pattern from
// hessPattern's scan of M instead of gatherSplit's marks.
func SetHpatScan(s *Simulator) { s.ws.mjnewton.sp.hpatScan = true }

// CountHpatInGather makes every hessPattern of s that takes M's part from
// gatherSplit's marks compare it with hessPattern's own scan of M, and
// returns a function that reports how many were compared and how many
// differed.
func CountHpatInGather(s *Simulator) (done func() (checked, differ int)) {
	var checked, differ int
	s.ws.mjnewton.sp.hpatCheck = func(nw *newtonWork) {
		got := append([]byte(nil), nw.sp.hpat...)
		nw.hessPatternM()
		checked++
		if string(got) != string(nw.sp.hpat) {
			differ++
		}
	}
	return func() (int, int) { return checked, differ }
}
