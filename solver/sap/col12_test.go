package sap

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// sameOld is shape.same as it was before pass 183: a test and branch a field.
func (sh *shape) sameOld(p *solver.Problem) bool {
	if !sh.ok || !sameLengths(p, &sh.lens) || len(p.Cliques) != len(sh.cliques) {
		return false
	}
	for i, q := range p.Cliques {
		if k := &sh.cliques[i]; q.Offset != k.Offset || q.Size != k.Size || q.AOff != k.AOff {
			return false
		}
	}
	if len(p.Constraints) != len(sh.cons) || len(p.JBlock) != len(sh.blocks) {
		return false
	}
	for i, c := range p.Constraints {
		if k := &sh.cons[i]; c.Kind != k.Kind || c.Row != k.Row || c.Size != k.Size || c.Par != k.Par {
			return false
		}
	}
	for i, b := range p.JBlock {
		if k := &sh.blocks[i]; b.Constraint != k.Constraint || b.Clique != k.Clique || b.Off != k.Off {
			return false
		}
	}
	return true
}

// TestCol12ShapeSameMatchesOld: same (fields or-ed into a word) answers as
// the field-by-field form on random structures kept and then left alone or
// changed in one field of one element (by one, by a sign, by a high bit,
// by 256 in a Kind's int image), one length, or one element added or
// removed, with empty slices among them.
func TestCol12ShapeSameMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(183, 14))
	var counts [2]int
	for trial := range 200000 {
		n := func() int { return rng.IntN(5) }
		p := &solver.Problem{NV: n(), NR: n()}
		p.A, p.VStar, p.MDiag = make([]float64, n()), make([]float64, n()), make([]float64, n())
		p.JData, p.VHat, p.R, p.Params = make([]float64, n()), make([]float64, n()), make([]float64, n()), make([]float64, n())
		for range n() {
			p.Cliques = append(p.Cliques, solver.Clique{Offset: rng.IntN(9), Size: rng.IntN(9), AOff: rng.IntN(9)})
		}
		for range n() {
			p.Constraints = append(p.Constraints, solver.Constraint{Kind: solver.Kind(rng.IntN(4)), Row: rng.IntN(9), Size: rng.IntN(4), Par: rng.IntN(9)})
		}
		for range n() {
			p.JBlock = append(p.JBlock, solver.JBlock{Constraint: rng.IntN(9), Clique: rng.IntN(9), Off: rng.IntN(9)})
		}
		var sh shape
		if rng.IntN(50) > 0 {
			sh.keep(p)
		}
		q := *p
		q.Cliques = append([]solver.Clique(nil), p.Cliques...)
		q.Constraints = append([]solver.Constraint(nil), p.Constraints...)
		q.JBlock = append([]solver.JBlock(nil), p.JBlock...)
		bump := func(x *int) {
			switch rng.IntN(4) {
			case 0:
				*x++
			case 1:
				*x = -*x - 1
			case 2:
				*x ^= 1 << 62
			default:
				*x--
			}
		}
		switch rng.IntN(8) {
		case 0, 1: // unchanged
		case 2:
			if len(q.Constraints) > 0 {
				c := &q.Constraints[rng.IntN(len(q.Constraints))]
				switch rng.IntN(4) {
				case 0:
					c.Kind ^= solver.Kind(1 << rng.IntN(8))
				case 1:
					bump(&c.Row)
				case 2:
					bump(&c.Size)
				default:
					bump(&c.Par)
				}
			}
		case 3:
			if len(q.JBlock) > 0 {
				b := &q.JBlock[rng.IntN(len(q.JBlock))]
				switch rng.IntN(3) {
				case 0:
					bump(&b.Constraint)
				case 1:
					bump(&b.Clique)
				default:
					bump(&b.Off)
				}
			}
		case 4:
			if len(q.Cliques) > 0 {
				c := &q.Cliques[rng.IntN(len(q.Cliques))]
				switch rng.IntN(3) {
				case 0:
					bump(&c.Offset)
				case 1:
					bump(&c.Size)
				default:
					bump(&c.AOff)
				}
			}
		case 5:
			switch rng.IntN(3) {
			case 0:
				q.Constraints = append(q.Constraints, solver.Constraint{})
			case 1:
				q.JBlock = append(q.JBlock, solver.JBlock{})
			default:
				q.Cliques = append(q.Cliques, solver.Clique{})
			}
		case 6:
			if len(q.Constraints) > 0 {
				q.Constraints = q.Constraints[:len(q.Constraints)-1]
			} else if len(q.JBlock) > 0 {
				q.JBlock = q.JBlock[1:]
			}
		default:
			bump(&q.NV)
		}
		got, want := sh.same(&q), sh.sameOld(&q)
		if got != want {
			t.Fatalf("trial %d: same = %v, the field-by-field form says %v (kept %+v, problem %+v)", trial, got, want, sh, q)
		}
		counts[b2i(got)]++
	}
	if counts[0] < 1000 || counts[1] < 1000 {
		t.Fatalf("differ and same: %v, want both at least 1000", counts)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
