package solver

import (
	"strings"
	"testing"
)

// TestFixedcostAccessorKinds: every named parameter accessor answers on
// each kind it documents and panics, naming itself and the kind, on every
// other kind (mustBe's bit set against the kinds' list).
func TestFixedcostAccessorKinds(t *testing.T) {
	var p Problem
	at := map[Kind]int{
		ContactCone:      p.AddConstraint(ContactCone, 3, 0.8),
		ContactLagged:    p.AddConstraint(ContactLagged, 3, 0.5, 2, 1e-4, 0.3, 0),
		ContactSimilar:   p.AddConstraint(ContactSimilar, 3, 0.4, 1e-4),
		Bilateral:        p.AddConstraint(Bilateral, 2),
		Interval:         p.AddConstraint(Interval, 1, -1, 3),
		Disk:             p.AddConstraint(Disk, 2, 0.25),
		ContactEllipticN: p.AddConstraint(ContactEllipticN, 4, 0.5, 0.1, 0.1, 0, 0),
	}
	if len(at) != int(numKinds) {
		t.Fatalf("%d kinds tried, want all %d", len(at), numKinds)
	}
	accessors := []struct {
		name string
		ok   []Kind
		call func(i int)
	}{
		{"Friction", []Kind{ContactCone, ContactLagged, ContactSimilar}, func(i int) { p.Friction(i) }},
		{"LaggedNormal", []Kind{ContactLagged}, func(i int) { p.LaggedNormal(i) }},
		{"SetLaggedNormal", []Kind{ContactLagged}, func(i int) { p.SetLaggedNormal(i, 2) }},
		{"LaggedScale", []Kind{ContactLagged}, func(i int) { p.LaggedScale(i) }},
		{"IntervalBounds", []Kind{Interval}, func(i int) { p.IntervalBounds(i) }},
		{"DiskRadius", []Kind{Disk}, func(i int) { p.DiskRadius(i) }},
	}
	for _, a := range accessors {
		for k := range numKinds {
			want := ""
			if !fixedcostHas(a.ok, k) {
				want = "solver: " + a.name + " on a constraint of kind " + k.String()
			}
			if got := fixedcostPanic(func() { a.call(at[k]) }); got != want {
				t.Errorf("%s on %v: panic %q, want %q", a.name, k, got, want)
			}
		}
	}
	// A kind past the known ones (a malformed problem) has no bit either.
	p.Constraints[at[ContactCone]].Kind = 40
	if got := fixedcostPanic(func() { p.Friction(at[ContactCone]) }); !strings.Contains(got, "Kind(40)") {
		t.Errorf("Friction on Kind(40): panic %q", got)
	}
}

// fixedcostHas reports whether ks holds k.
func fixedcostHas(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// fixedcostPanic runs f and returns its panic's message ("" if none).
func fixedcostPanic(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic"
			}
		}
	}()
	f()
	return ""
}
