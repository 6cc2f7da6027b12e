package solver

import "testing"

// TestParamAccessors: the named accessors read and set the parameters each
// kind documents, and refuse a constraint of another kind.
func TestParamAccessors(t *testing.T) {
	var p Problem
	lag := p.AddConstraint(ContactLagged, 3, 0.5, 2, 1e-4, 0.3, 0)
	cone := p.AddConstraint(ContactCone, 3, 0.8)
	iv := p.AddConstraint(Interval, 1, -1, 3)
	disk := p.AddConstraint(Disk, 2, 0.25)
	gamma := make([]float64, p.NR)
	gamma[p.Constraints[cone].Row+2] = 10
	if got := p.FrictionBound(lag, gamma); got != 0.5*2 {
		t.Errorf("lagged bound %v, want μ n0 = 1", got)
	}
	if got := p.FrictionBound(cone, gamma); got != 0.8*10 {
		t.Errorf("cone bound %v, want μ γn = 8", got)
	}
	p.SetLaggedNormal(lag, 4)
	if p.LaggedNormal(lag) != 4 || p.LaggedScale(lag) != 0.3 || p.Friction(lag) != 0.5 {
		t.Errorf("lagged params %v", p.Par(lag))
	}
	if lo, hi := p.IntervalBounds(iv); lo != -1 || hi != 3 {
		t.Errorf("interval [%v, %v], want [-1, 3]", lo, hi)
	}
	if p.DiskRadius(disk) != 0.25 {
		t.Errorf("disk radius %v", p.DiskRadius(disk))
	}
	defer func() {
		if recover() == nil {
			t.Error("LaggedNormal on a cone did not panic")
		}
	}()
	p.LaggedNormal(cone)
}
