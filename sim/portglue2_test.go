package sim

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
)

// portglue2Material returns a random valid material: MuJoCo's soft one
// (SlipTime, SlipStiffness, SlipWeight) or SAP's, with or without
// MaxFriction, priorities and condims, solref and signed zeros.
func portglue2Material(rng *rand.Rand) contact.Material {
	m := contact.Material{Stiffness: 1e3 + 1e5*rng.Float64(), Dissipation: 0.01 * rng.Float64(),
		Friction: rng.Float64(), Anchors: rng.IntN(2) == 0}
	if rng.IntN(3) == 0 {
		m.Friction = math.Copysign(0, -1) // −0 is valid and must not be taken for +0
	}
	if rng.IntN(4) > 0 {
		m.SlipTime, m.SlipStiffness = 0.02*(1+rng.Float64()), 100*rng.Float64()
		m.SlipImp = [5]float64{0.9, 0.95, 0.001, 0.5, 2}
		m.SlipWeight, m.WeightSet = rng.Float64(), rng.IntN(2) == 0
		if rng.IntN(2) == 0 {
			m.SlipRef = [2]float64{0.02, 1 + rng.Float64()}
		}
	}
	if rng.IntN(2) == 0 {
		m.MaxFriction, m.Priority, m.Condim = true, rng.IntN(2), []int{0, 1, 3, 4, 6}[rng.IntN(5)]
		m.Spin, m.Rolling = 0.01*rng.Float64(), 0.001*rng.Float64()
	}
	return m
}

// TestCombinedMaterialCache: the combined material mujocoSoft keeps
// across steps (combinedMaterial) is contact.Combine's of the two
// geometries' current materials, to the bit, over 3000 random pair
// queries on 12 geometries with 9 materials, 5% of which change a material
// in place between queries (a field, or the sign of a zero friction),
// more pairs than the cache keeps (so entries are replaced). It fails if a
// changed material's stale combination is returned.
func TestCombinedMaterialCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 23))
	const ngeom, nmat = 12, 9
	sim, mats := portglue2Sim(rng, ngeom, nmat)
	m := sim.Model
	hits := 0
	for q := range 3000 {
		if rng.IntN(20) == 0 {
			i := rng.IntN(nmat)
			switch rng.IntN(3) {
			case 0:
				mats[i] = portglue2Material(rng)
			case 1:
				mats[i].SlipImp[rng.IntN(5)] *= 0.999
			default:
				mats[i].Friction = math.Copysign(0, -math.Copysign(1, mats[i].Friction)) // flip a zero's sign
			}
		}
		pr := contact.Pair{GeomA: rng.IntN(ngeom), GeomB: rng.IntN(ngeom)}
		before := len(sim.ws.mj.staged.matCache.entries)
		got := sim.combinedMaterial(&pr)
		if len(sim.ws.mj.staged.matCache.entries) == before && before < pairMatCacheSize {
			hits++
		}
		want := contact.Combine(mats[m.Geometries[pr.GeomA].Material], mats[m.Geometries[pr.GeomB].Material])
		if !sameMaterial(&got.mat, &want) || got.soft != want.MuJoCoSoft() {
			t.Fatalf("query %d, geometries %d, %d: kept %+v (soft %v), Combine gives %+v", q, pr.GeomA, pr.GeomB, got.mat, got.soft, want)
		}
	}
	if n := len(sim.ws.mj.staged.matCache.entries); n != pairMatCacheSize || hits == 0 {
		t.Fatalf("cache of %d entries, %d hits before it filled: want it full and used", n, hits)
	}
}

// TestSameMaterialEveryField: sameMaterial tells apart two materials that
// differ in any one field of contact.Material (each element of an array,
// the sign of a zero), found by reflection, so that a field added to
// Material later and not compared fails here.
func TestSameMaterialEveryField(t *testing.T) {
	base := contact.Material{Stiffness: 1, Dissipation: 2, Friction: 3, Rolling: 4, Spin: 5, SlipTime: 6,
		SlipImp: [5]float64{7, 8, 9, 10, 11}, SlipStiffness: 12, SlipRef: [2]float64{13, 14}, SlipWeight: 15,
		Condim: 3, Priority: 1, Foundation: &contact.Foundation{}}
	same := base
	if !sameMaterial(&base, &same) {
		t.Fatal("a copy differs")
	}
	changed := 0
	try := func(name string, set func(v reflect.Value)) {
		t.Helper()
		m := base
		set(reflect.ValueOf(&m).Elem())
		if sameMaterial(&base, &m) {
			t.Errorf("field %s changed, sameMaterial still true", name)
		}
		changed++
	}
	typ := reflect.TypeOf(base)
	for f := range typ.NumField() {
		fd := typ.Field(f)
		switch fd.Type.Kind() {
		case reflect.Float64:
			try(fd.Name, func(v reflect.Value) { v.Field(f).SetFloat(v.Field(f).Float() + 0.5) })
		case reflect.Array:
			for k := range fd.Type.Len() {
				try(fd.Name, func(v reflect.Value) { e := v.Field(f).Index(k); e.SetFloat(e.Float() + 0.5) })
			}
		case reflect.Bool:
			try(fd.Name, func(v reflect.Value) { v.Field(f).SetBool(!v.Field(f).Bool()) })
		case reflect.Int:
			try(fd.Name, func(v reflect.Value) { v.Field(f).SetInt(v.Field(f).Int() + 1) })
		case reflect.Pointer:
			try(fd.Name, func(v reflect.Value) { v.Field(f).Set(reflect.New(fd.Type.Elem())) })
		default:
			t.Errorf("field %s of kind %s: sameMaterial's test does not know it", fd.Name, fd.Type.Kind())
		}
	}
	z := base
	z.Friction, base.Friction = math.Copysign(0, -1), 0
	if sameMaterial(&base, &z) {
		t.Error("+0 and −0 friction taken for the same")
	}
	if changed < 20 {
		t.Fatalf("only %d fields changed", changed)
	}
}

// TestKnownMaterialReplaced: a step's pair memo (rememberMaterial) that
// refers to a cache entry replaced later in the same step gives no
// material (knownMaterial returns nil, softTouching combines again), and
// every other memo gives contact.Combine's material of its pair, to the
// bit: 200 steps of 40 random pairs on 12 geometries with 9 materials,
// more combinations than the cache keeps.
func TestKnownMaterialReplaced(t *testing.T) {
	rng := rand.New(rand.NewPCG(216, 23))
	const ngeom, nmat = 12, 9
	sim, mats := portglue2Sim(rng, ngeom, nmat)
	m := sim.Model
	lost, kept := 0, 0
	for range 200 {
		sim.ws.mj.staged.known = sim.ws.mj.staged.known[:0] // detectContacts'
		pairs := make([]contact.Pair, 40)
		for j := range pairs {
			pairs[j] = contact.Pair{GeomA: rng.IntN(ngeom), GeomB: rng.IntN(ngeom)}
			sim.rememberMaterial(&pairs[j])
		}
		for j := range pairs {
			pr := &pairs[j]
			got := sim.knownMaterial(j, pr)
			if got == nil {
				lost++
				continue
			}
			kept++
			want := contact.Combine(mats[m.Geometries[pr.GeomA].Material], mats[m.Geometries[pr.GeomB].Material])
			if !sameMaterial(&got.mat, &want) || got.soft != want.MuJoCoSoft() {
				t.Fatalf("pair %d, geometries %d, %d: known %+v, Combine gives %+v", j, pr.GeomA, pr.GeomB, got.mat, want)
			}
		}
	}
	if lost == 0 || kept == 0 {
		t.Fatalf("%d memos lost to replaced entries, %d kept: want both", lost, kept)
	}
}

// portglue2Sim returns a simulator over ngeom geometries, each given one of
// nmat random materials (portglue2Material), and those materials.
func portglue2Sim(rng *rand.Rand, ngeom, nmat int) (*Simulator, []contact.Material) {
	m := &multibody.Model{Geometries: make([]multibody.Geometry, ngeom)}
	mats := make([]contact.Material, nmat)
	for i := range mats {
		mats[i] = portglue2Material(rng)
	}
	for g := range m.Geometries {
		m.Geometries[g].Material = rng.IntN(nmat)
	}
	return &Simulator{Model: m, cfg: Config{Materials: mats}}, mats
}
