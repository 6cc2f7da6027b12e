package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// TestCoordinatesMatchDense: the port's change of coordinates
// (newtonWork.coordinates, which turns only the free and ball joints'
// angular blocks) gives M = Tᵀ M_w T and J = J_w T with the bits of the
// dense products (T's columns from WorldVelocity of the unit vectors, every
// sum from +0 over all nv terms), on a tree of a free body, a ball joint,
// a hinge and a slide at random configurations, with M_w and J_w random
// and holding exact zeros of both signs; and the rows' patterns hold every
// non-zero of J.
func TestCoordinatesMatchDense(t *testing.T) {
	m := &multibody.Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
	add := func(j multibody.Joint) int {
		b, err := m.AddBody(fmt.Sprint("b", len(m.Bodies)), in, j)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	id := spatial.PoseIdentity()
	root := add(multibody.Joint{Type: multibody.JointFree, Parent: -1, ParentFrame: id, ChildFrame: id})
	ball := add(multibody.Joint{Type: multibody.JointBall, Parent: root, ParentFrame: id, ChildFrame: id})
	add(multibody.Joint{Type: multibody.JointRevolute, Parent: ball, ParentFrame: id, ChildFrame: id, Axis: spatial.Vec3{0, 0, 1}})
	add(multibody.Joint{Type: multibody.JointPrismatic, Parent: root, ParentFrame: id, ChildFrame: id, Axis: spatial.Vec3{1, 0, 0}})
	nv, rows := m.NV, 7
	rng := rand.New(rand.NewPCG(7, 23))
	entry := signedZerosOrNormal(rng)
	sim := &Simulator{Model: m}
	for trial := range 50 {
		q := randomRotations(m, rng, trial == 0)
		var p solver.Problem
		p.Reset(nv)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: nv})
		p.A = make([]float64, nv*nv)
		for i := range p.A {
			p.A[i] = entry()
		}
		sim.ws.pgs.perm = sim.ws.pgs.perm[:0]
		for r := range rows {
			k := p.AddConstraint(solver.Bilateral, 1)
			d := p.AddJBlock(k, 0)
			for c := range d {
				if (r+c)%3 != 0 { // else an exact +0
					d[c] = entry()
				}
			}
			sim.ws.pgs.perm = append(sim.ws.pgs.perm, rows-1-r) // MuJoCo's order differs from the problem's
		}
		nw := &newtonWork{}
		nw.resize(nv, rows, p.NR)
		nw.coordinates(sim, &p, q)
		tm := make([]float64, nv*nv) // T[r, i]
		e, col := make([]float64, nv), make([]float64, nv)
		for i := range nv {
			clear(e)
			e[i] = 1
			m.WorldVelocity(q, e, col)
			for r := range nv {
				tm[r*nv+i] = col[r]
			}
		}
		mt := make([]float64, nv*nv) // M_w T
		for r := range nv {
			for i := range nv {
				s := 0.0
				for c := range nv {
					s += p.A[r*nv+c] * tm[c*nv+i]
				}
				mt[r*nv+i] = s
			}
		}
		for r := range nv {
			for i := range nv {
				s := 0.0
				for c := range nv {
					s += tm[c*nv+r] * mt[c*nv+i]
				}
				if math.Float64bits(s) != math.Float64bits(nw.m[r*nv+i]) {
					t.Fatalf("trial %d: M[%d,%d] = %v, dense %v", trial, r, i, nw.m[r*nv+i], s)
				}
			}
		}
		for k, row := range sim.ws.pgs.perm {
			jw := p.JBlockData(row)
			nz := nw.rowNZ(k)
			for i := range nv {
				s := 0.0
				for c := range nv {
					s += jw[c] * tm[c*nv+i]
				}
				if math.Float64bits(s) != math.Float64bits(nw.j[k*nv+i]) {
					t.Fatalf("trial %d: J[%d,%d] = %v, dense %v", trial, k, i, nw.j[k*nv+i], s)
				}
				if s != 0 && !containsIndex(nz, i) {
					t.Fatalf("trial %d: row %d's pattern %v lacks column %d", trial, k, nz, i)
				}
			}
		}
	}
}

// containsIndex reports whether idx holds i.
func containsIndex(idx []int32, i int) bool {
	for _, x := range idx {
		if int(x) == i {
			return true
		}
	}
	return false
}

// TestDotNZMatchesDot4: dotNZ over a vector's non-zeros gives dot4's bits
// over the whole vector, for lengths 0 to 40 (every remainder mod 4), with
// exact zeros of both signs in a and entries of both signs in x; so do
// mulJ's rows by pattern.
func TestDotNZMatchesDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := trial % 41
		a, x := make([]float64, n), make([]float64, n)
		for i := range n {
			switch rng.IntN(3) {
			case 0:
				a[i] = math.Copysign(0, float64(rng.IntN(2))-0.5)
			default:
				a[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
			}
			x[i] = rng.NormFloat64()
		}
		var pt pattern
		pt.set(a, 1, n)
		got, want := dotNZ(a, x, pt.row(0), n), dot4(a, x)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n %d: dotNZ %v, dot4 %v (a %v)", n, got, want, a)
		}
	}
}

// TestSparseCoordinatesMatchDense: the sparse path's change of coordinates
// (sparseCoordinates: M per clique by turnMass on the clique's window, J's
// rows by turnRow) gives the bits of the dense path's (coordinates, itself
// held to the dense products by TestCoordinatesMatchDense) on two trees,
// the second's clique at an offset with its ball joint inside it, at random
// configurations, with exact zeros of both signs in M_w and J_w and
// constraints of two rows on one clique or both; a column a compressed row
// leaves out is zero.
func TestSparseCoordinatesMatchDense(t *testing.T) {
	sim, nv1 := twoTreeSim(t)
	m, nv := sim.Model, sim.Model.NV
	rng := rand.New(rand.NewPCG(3, 5))
	entry := signedZerosOrNormal(rng)
	for trial := range 30 {
		q := randomRotations(m, rng, trial == 0)
		p := twoCliqueProblem(nv, nv1, entry, 6, func(int) int { return 2 }, func(k, i int) bool { return (k+i)%4 != 0 })
		perm := make([]int, 0, p.NR)
		for r := range p.NR {
			perm = append(perm, p.NR-1-r)
		}
		sim.ws.pgs.perm = perm
		dense := &newtonWork{}
		dense.resize(nv, len(perm), p.NR)
		dense.coordinates(sim, &p, q)
		sparse := sparseCoordinatesOf(sim, &p, q, perm)
		checkSparseMatchesDense(t, trial, sparse, dense, &p, len(perm))
	}
}

// twoTreeModel returns TestSparseCoordinatesMatchDense's model, two trees
// with a free joint each (a ball joint inside the first, a hinge then a
// ball joint in the second), and the first tree's velocity count.
func twoTreeModel(t *testing.T) (*multibody.Model, int) {
	t.Helper()
	m := &multibody.Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
	id := spatial.PoseIdentity()
	add := func(typ multibody.JointType, parent int) int {
		b, err := m.AddBody(fmt.Sprint("b", len(m.Bodies)), in, multibody.Joint{Type: typ, Parent: parent, ParentFrame: id, ChildFrame: id, Axis: spatial.Vec3{0, 0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	root := add(multibody.JointFree, -1)
	add(multibody.JointRevolute, add(multibody.JointBall, root))
	nv1 := m.NV
	add(multibody.JointBall, add(multibody.JointRevolute, add(multibody.JointFree, -1)))
	return m, nv1
}

// twoCliqueProblem returns a problem on twoTreeModel's two cliques (nv1
// velocities in the first) with M_w's entries from entry and ncon
// constraints, constraint k of rows(k) rows on clique 0, clique 1 or both
// (k mod 3), entry i of a block from entry where keep(k, i), else +0.
func twoCliqueProblem(nv, nv1 int, entry func() float64, ncon int, rows func(int) int, keep func(k, i int) bool) solver.Problem {
	var p solver.Problem
	p.Reset(nv)
	p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: nv1}, solver.Clique{Offset: nv1, Size: nv - nv1, AOff: nv1 * nv1})
	p.A = make([]float64, nv1*nv1+(nv-nv1)*(nv-nv1))
	for i := range p.A {
		p.A[i] = entry()
	}
	for k := range ncon {
		con := p.AddConstraint(solver.Bilateral, rows(k))
		for c := range 2 {
			if k%3 == c || k%3 == 2 { // clique 0, clique 1, both
				d := p.AddJBlock(con, c)
				for i := range d {
					if keep(k, i) {
						d[i] = entry()
					}
				}
			}
		}
	}
	return p
}

// sparseCoordinatesOf returns a newtonWork on the sparse path with p's
// change of coordinates at q made (sparseCoordinates, rows in perm's order).
func sparseCoordinatesOf(sim *Simulator, p *solver.Problem, q []float64, perm []int) *newtonWork {
	sparse := &newtonWork{}
	sparse.sp.on = true
	sparse.resize(p.NV, len(perm), p.NR)
	sparse.sparseCoordinates(sim, p, q, perm)
	return sparse
}

// twoTreeSim returns a Simulator on twoTreeModel (scratch for the
// change of coordinates alone) and the first tree's velocity count.
func twoTreeSim(t *testing.T) (*Simulator, int) {
	t.Helper()
	m, nv1 := twoTreeModel(t)
	return &Simulator{Model: m}, nv1
}

// checkSparseMatchesDense fails unless sparse's M blocks and compressed
// rows (rows of them) hold the bits of dense's M and J, a column a row leaves
// out being zero in dense's.
func checkSparseMatchesDense(t *testing.T, trial int, sparse, dense *newtonWork, p *solver.Problem, rows int) {
	t.Helper()
	nv := dense.nv
	sp := &sparse.sp
	for c, cq := range p.Cliques {
		n := cq.Size
		for r := range n {
			for i := range n {
				got, want := sp.mb[sp.madr[c]+r*n+i], dense.m[(cq.Offset+r)*nv+cq.Offset+i]
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("trial %d: clique %d M[%d,%d] = %v, dense %v", trial, c, r, i, got, want)
				}
			}
		}
	}
	for k := range rows {
		ind, val := sp.row(k)
		at := 0
		for i := range nv {
			want := dense.j[k*nv+i]
			if at < len(ind) && ind[at] == i {
				if math.Float64bits(val[at]) != math.Float64bits(want) {
					t.Fatalf("trial %d: J[%d,%d] = %v, dense %v", trial, k, i, val[at], want)
				}
				at++
			} else if want != 0 {
				t.Fatalf("trial %d: row %d leaves out column %d, dense %v", trial, k, i, want)
			}
		}
		if at != len(ind) {
			t.Fatalf("trial %d: row %d's columns %v not increasing", trial, k, ind)
		}
	}
}

// signedZerosOrNormal returns a source of matrix entries: +0 or −0 a
// quarter of the time each, else a standard normal.
func signedZerosOrNormal(rng *rand.Rand) func() float64 {
	return func() float64 {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		}
		return rng.NormFloat64()
	}
}

// randomRotations returns m's initial positions with every free and ball
// joint at a random rotation, or at the identity (T's blocks with exact
// zeros) when identity is set.
func randomRotations(m *multibody.Model, rng *rand.Rand, identity bool) []float64 {
	q := m.NewState().Q
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Joint.Type == multibody.JointFree || b.Joint.Type == multibody.JointBall {
			r := spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			if identity {
				r = spatial.QuatIdentity()
			}
			q[b.QOff], q[b.QOff+1], q[b.QOff+2], q[b.QOff+3] = r.W, r.X, r.Y, r.Z
		}
	}
	return q
}
