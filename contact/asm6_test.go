package contact

import (
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// asm6Dirty returns a Material whose every field is set to a value
// that Combine never gives (NaN-free, not zero), so that a field
// combineTo does not store shows as a difference.
func asm6Dirty() Material {
	var m Material
	v := reflect.ValueOf(&m).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Float64:
			f.SetFloat(-123.5)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int:
			f.SetInt(-7)
		case reflect.Array:
			for k := range f.Len() {
				f.Index(k).SetFloat(-99.25)
			}
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			panic("asm6Dirty: a Material field of kind " + f.Kind().String())
		}
	}
	return m
}

// TestAsm6CombineToEveryField: combineTo, which stores the fields of c in
// place one by one, leaves in a c that held other values (every field
// set) the same material as Combine into a zero one, for materials with
// and without slip times and references, anchors and weights.
func TestAsm6CombineToEveryField(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 6))
	mat := func() Material {
		m := Material{Stiffness: 1e3 + 1e5*r.Float64(), Dissipation: 0.1 * r.Float64(), Friction: r.Float64(),
			Rolling: float64(r.IntN(2)) * r.Float64(), Spin: float64(r.IntN(2)) * r.Float64(), Anchors: r.IntN(2) == 0,
			SlipWeight: float64(r.IntN(2)) * r.Float64(), WeightSet: r.IntN(2) == 0}
		if r.IntN(3) > 0 {
			m.SlipTime, m.SlipStiffness = 0.02*r.Float64()+1e-3, 1e4*r.Float64()
			m.SlipImp = [5]float64{0.9, 0.95, 0.001, 0.5, 2}
			if r.IntN(2) == 0 {
				m.SlipRef = [2]float64{0.02, 1}
			}
		}
		return m
	}
	for range 200 {
		a, b := mat(), mat()
		c := asm6Dirty()
		combineTo(&c, &a, &b)
		want := Material{}
		combineTo(&want, &a, &b)
		if !reflect.DeepEqual(c, want) {
			t.Fatalf("combineTo into a used material:\n%+v\nwant\n%+v", c, want)
		}
		if !reflect.DeepEqual(c, Combine(a, b)) {
			t.Fatalf("combineTo differs from Combine:\n%+v\nwant\n%+v", c, Combine(a, b))
		}
	}
}

// asm6Loads is the load estimate of supported in its plain form: each
// rigid group's mass (multibody.Model.RigidGroup) summed in body order,
// the supporting pairs taken by decreasing height of their upper body
// (ties by index), each passing its share of the upper body's mass down.
func asm6Loads(m *multibody.Model, kin *multibody.Workspace, pairs []Pair) []float64 {
	group := func(b int) int {
		if g := m.RigidGroup(b); g >= 0 {
			return g
		}
		return b
	}
	mass, nsup := make([]float64, len(m.Bodies)), make([]int, len(m.Bodies))
	for b := range m.Bodies {
		if m.Bodies[b].Tree >= 0 {
			mass[group(b)] += m.Bodies[b].Inertia.Mass
		}
	}
	up := m.Gravity.Scale(-1 / m.Gravity.Norm())
	lower, upper, order := make([]int, len(pairs)), make([]int, len(pairs)), []int{}
	for i, pr := range pairs {
		c := pr.Normal.Dot(up)
		switch {
		case c > supportCos:
			lower[i], upper[i] = group(pr.BodyA), group(pr.BodyB)
		case c < -supportCos:
			lower[i], upper[i] = group(pr.BodyB), group(pr.BodyA)
		default:
			continue
		}
		nsup[upper[i]]++
		if m.Bodies[upper[i]].Tree >= 0 {
			order = append(order, i)
		}
	}
	height := func(i int) float64 { return kin.Pose(upper[i]).P.Dot(up) }
	sort.SliceStable(order, func(x, y int) bool { return height(order[x]) > height(order[y]) })
	load := make([]float64, len(pairs))
	for _, i := range order {
		load[i] = mass[upper[i]] / float64(nsup[upper[i]])
		mass[lower[i]] += load[i]
	}
	return load
}

// TestAsm6Loads: supported, which finds each body's rigid group and sums
// the groups' masses in one pass, gives the plain form's loads bit for
// bit, on a scene of welded groups (a near massless link and a heavy one
// welded to free bodies, a body welded to the world) and pairs of random
// normals, vertical and not, between every two bodies, in both orders.
func TestAsm6Loads(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 7))
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	add := func(typ multibody.JointType, parent int, mass float64, z float64) int {
		in := spatial.SpatialInertia{Mass: mass, Icom: spatial.Diag3(spatial.Vec3{0.01, 0.02, 0.03})}
		j := multibody.Joint{Type: typ, Parent: parent, ParentFrame: spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, z}},
			ChildFrame: spatial.PoseIdentity()}
		b, err := m.AddBody("b", in, j)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ground := add(multibody.JointWeld, -1, 1, 0)
	low := add(multibody.JointFree, -1, 2, 0.5)
	add(multibody.JointWeld, low, 1e-9, 0.1) // near massless, welded to low
	add(multibody.JointWeld, low, 5, -0.1)   // heavy, welded to low
	high := add(multibody.JointFree, -1, 1, 1.5)
	add(multibody.JointWeld, high, 0.25, 0.2)
	side := add(multibody.JointFree, -1, 3, 1.5) // at high's height: the pairs' ties
	ws := multibody.NewWorkspace(m)
	s := m.NewState()
	ws.Update(s.Q, s.V)
	nb := len(m.Bodies)
	for trial := range 300 {
		pairs := make([]Pair, 1+r.IntN(12))
		for i := range pairs {
			n := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			if r.IntN(2) == 0 {
				n = spatial.Vec3{0.1 * r.NormFloat64(), 0.1 * r.NormFloat64(), 1}
			}
			n = n.Scale(1 / n.Norm())
			ba, bb := r.IntN(nb), r.IntN(nb)
			if trial%3 == 0 {
				ba, bb = ground, []int{low, high, side}[r.IntN(3)]
			}
			pairs[i] = Pair{BodyA: ba, BodyB: bb}
			pairs[i].Normal = n
		}
		var a Assembler
		a.start(m, 0, 0.01, 0)
		a.supported(m, ws, pairs)
		want := asm6Loads(m, ws, pairs)
		for i := range pairs {
			if math.Float64bits(a.load[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d, pair %d of %d: load %v, want %v", trial, i, len(pairs), a.load[i], want[i])
			}
		}
	}
}

// TestAsm6FrameReuse: contactFrame, which reuses the frame pair i kept
// from an earlier Assemble or pair i−1's when its normal has the same
// bits, returns spatial.Orthonormal's frame of the normal bit for bit,
// over rounds of pairs whose normals repeat, change, come in manifolds,
// differ only in the sign of a zero, or are zero, with pairs unset
// (unsetPairs) and the state grown between rounds.
func TestAsm6FrameReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 8))
	negZero := math.Copysign(0, -1)
	pool := []spatial.Vec3{{0, 0, 1}, {negZero, 0, 1}, {0, negZero, 1}, {0, 0, -1}, {}, {negZero, negZero, negZero}}
	for range 6 {
		n := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		pool = append(pool, n.Scale(1/n.Norm()))
	}
	var a Assembler
	for round := range 400 {
		np := 1 + r.IntN(9)
		if cap(a.per) < np {
			a.per = growFresh(a.per, np)
		}
		a.per = a.per[:np]
		n := pool[r.IntN(len(pool))]
		for i := range np {
			if r.IntN(3) == 0 { // else the manifold's normal again
				n = pool[r.IntN(len(pool))]
			}
			f := a.contactFrame(i, &n)
			t1, t2 := spatial.Orthonormal(n)
			for k, want := range [3]spatial.Vec3{t1, t2, n} {
				if !sameBits(&f[k], &want) {
					t.Fatalf("round %d, pair %d, normal %v: row %d %v, want %v", round, i, n, k, f[k], want)
				}
			}
			if f != &a.per[i].f || a.per[i].roll != -1 || a.per[i].spin != -1 || a.per[i].lever != 0 {
				t.Fatalf("round %d, pair %d: state %+v", round, i, a.per[i])
			}
		}
		if r.IntN(4) == 0 {
			a.unsetPairs(r.IntN(np))
		}
	}
}
