package solver

// Named accessors of the constraint kinds' parameters (kind.go lists each
// kind's Params), for the packages that read or set them after a solve;
// they replace positional indices into Problem.Params. Each panics, like
// an index out of range, when constraint i is not of a kind it applies to.

// Friction returns the friction coefficient μ of contact constraint i
// (ContactCone, ContactLagged or ContactSimilar).
func (p *Problem) Friction(i int) float64 {
	p.mustBe(i, "Friction", kindBit(ContactCone)|kindBit(ContactLagged)|kindBit(ContactSimilar))
	return p.Params[p.Constraints[i].Par]
}

// LaggedNormal returns n0, the lagged normal impulse that bounds the
// friction of ContactLagged constraint i.
func (p *Problem) LaggedNormal(i int) float64 {
	p.mustBe(i, "LaggedNormal", kindBit(ContactLagged))
	return p.Params[p.Constraints[i].Par+1]
}

// SetLaggedNormal sets n0 of ContactLagged constraint i.
func (p *Problem) SetLaggedNormal(i int, n0 float64) {
	p.mustBe(i, "SetLaggedNormal", kindBit(ContactLagged))
	p.Params[p.Constraints[i].Par+1] = n0
}

// LaggedScale returns the normal impulse scale of ContactLagged constraint
// i (its own weight's impulse), by which LaggedRefiner judges changes.
func (p *Problem) LaggedScale(i int) float64 {
	p.mustBe(i, "LaggedScale", kindBit(ContactLagged))
	return p.Params[p.Constraints[i].Par+3]
}

// FrictionBound returns the bound of contact constraint i's friction
// impulse in a solution with impulses gamma: μ n0 for ContactLagged, μ γ_n
// (γ_n ≥ 0) for the others.
func (p *Problem) FrictionBound(i int, gamma []float64) float64 {
	c := p.Constraints[i]
	if c.Kind == ContactLagged { // μ n0, read in place: the kind is known, Friction's and LaggedNormal's checks pass
		par := p.Params[c.Par : c.Par+2]
		return par[0] * par[1]
	}
	return p.Friction(i) * max(gamma[c.Row+2], 0)
}

// IntervalBounds returns the bounds [lo, hi] of Interval constraint i.
func (p *Problem) IntervalBounds(i int) (lo, hi float64) {
	p.mustBe(i, "IntervalBounds", kindBit(Interval))
	par := p.Params[p.Constraints[i].Par:]
	return par[0], par[1]
}

// DiskRadius returns the radius of Disk constraint i.
func (p *Problem) DiskRadius(i int) float64 {
	p.mustBe(i, "DiskRadius", kindBit(Disk))
	return p.Params[p.Constraints[i].Par]
}

// kindBit is kind k's bit in a set of kinds (mustBe).
func kindBit(k Kind) uint32 { return 1 << k }

// mustBe panics unless constraint i is of one of the kinds in the set
// kinds (kindBit's bits): a test of one bit, small enough to be inlined
// into the accessors, which the contact memory and the Lagged refiner call
// for every contact of every step.
func (p *Problem) mustBe(i int, name string, kinds uint32) {
	if k := p.Constraints[i].Kind; kinds>>k&1 == 0 { // a kind ≥ 32 has no bit: kinds >> k is 0

		wrongKind(name, k)
	}
}

// wrongKind panics for an accessor name called on a constraint of kind k
// (not inlined, so that mustBe stays small).
//
//go:noinline
func wrongKind(name string, k Kind) {
	panic("solver: " + name + " on a constraint of kind " + k.String())
}
