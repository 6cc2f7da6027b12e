package constraint_test

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
)

// TestRows4LimitCoordsFollowEdits: NeedsSolveCached with one LimitCoords
// kept across calls answers as NeedsSolve does, over 2000 random states of
// dm_control's point_mass (two limited slide joints on one body: a
// compound joint, whose coordinates dofAt finds by a call), while the
// limits are edited in place now and then (their degrees of freedom
// swapped, a bound moved) and the cache is handed another model's
// coordinates' owner (a second build). It fails if a kept coordinate
// outlives the edit of its limit: the swapped DOFs point each limit at the
// other joint's coordinate, and the states are drawn so that one is past
// its limit and the other is not.
func TestRows4LimitCoordsFollowEdits(t *testing.T) {
	path := filepath.Join("..", "internal", "mjref", "testdata", "dm_control", "suite", "point_mass.xml")
	sc, _, err := modelload.Scene(path, nil, modelload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b1, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	set := b1.Config.Constraints
	if len(set.Limits) != 2 || set.Limits[0].Body != set.Limits[1].Body || set.Limits[0].DOF == set.Limits[1].DOF {
		t.Fatalf("limits %+v: want point_mass's two limits on one body's two degrees of freedom", set.Limits)
	}
	rng := rand.New(rand.NewPCG(65, 4))
	var lc constraint.LimitCoords
	m := b1.Model
	differs, edits := 0, 0
	for k := range 2000 {
		if rng.IntN(25) == 0 {
			edits++
			if rng.IntN(2) == 0 {
				set.Limits[0].DOF, set.Limits[1].DOF = set.Limits[1].DOF, set.Limits[0].DOF
			} else {
				set.Limits[rng.IntN(2)].Upper *= 0.9
			}
		}
		if rng.IntN(50) == 0 {
			if m == b1.Model {
				m = b2.Model
			} else {
				m = b1.Model
			}
		}
		q := slices.Clone(b1.State.Q)
		for _, l := range set.Limits { // one limit's coordinate past its bound, the other's well within
			q[m.Bodies[l.Body].QOff+l.DOF] = 0
		}
		l := set.Limits[rng.IntN(2)]
		q[m.Bodies[l.Body].QOff+l.DOF] = l.Upper + 0.01*rng.Float64() - 0.003
		want := set.NeedsSolve(m, q)
		if got := set.NeedsSolveCached(m, q, &lc); got != want {
			t.Fatalf("draw %d: NeedsSolveCached %v, NeedsSolve %v (limits %+v)", k, got, want, set.Limits)
		}
		if want {
			differs++
		}
	}
	if edits < 40 || differs < 400 || differs > 1600 {
		t.Fatalf("%d edits, %d of 2000 draws past a limit: want both answers often", edits, differs)
	}
}
