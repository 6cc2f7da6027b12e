package sim

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// angularTurns is the rk4 schemes' change of coordinates u = L(q) v and its
// inverse (multibody.Model.LocalVelocity and WorldVelocity, which rk4VStar,
// rk4Stage, rk4Combine and the staged rk4 steps call 13 times a step),
// with the model's angular blocks (angularBlocks: each free and ball
// joint's and ball part's first velocity and quaternion coordinate) kept
// for the model and its sizes it was found for: those functions walk every
// body of the model at each call (Gymnasium ant: 7.9k instructions a step,
// BENCHMARKS.md seventy-third and seventy-sixth passes). Each block is
// turned by the same operations as multibody's turnVec (spatial.Quat.Rotate
// of the quaternion, conjugated for the local frame), so to the same bits.
//
// One angularTurns (Workspace.mj.turns) serves the rk4 schemes, the PGS
// and Newton ports' changes of coordinates (solveNewton, warmStart,
// keepSolveWarm) and newtonWork's blocks of T (setBlocks): the blocks are
// found once per model.
type angularTurns struct {
	model  *multibody.Model
	nv, nq int
	v, q   []int // per angular block, its first velocity and coordinate
	gen    int   // incremented each time v and q are found anew (set)
}

// set finds the model's angular blocks (angularBlocks) when the model or
// its sizes changed since the last call, and reports whether it did (the
// test inlined, the search out of line in find).
func (t *angularTurns) set(m *multibody.Model) bool {
	if t.model == m && t.nv == m.NV && t.nq == m.NQ {
		return false
	}
	t.find(m)
	return true
}

// find finds the model's angular blocks for set and blocks.
func (t *angularTurns) find(m *multibody.Model) {
	t.model, t.nv, t.nq = m, m.NV, m.NQ
	t.v, t.q = angularBlocks(m, t.v, t.q)
	t.gen++
}

// local sets out = L(q) v (multibody.Model.LocalVelocity); out may alias v.
func (t *angularTurns) local(m *multibody.Model, q, v, out []float64) { t.turn(m, q, v, out, true) }

// world sets out = L(q)⁻¹ u (multibody.Model.WorldVelocity); out may alias u.
func (t *angularTurns) world(m *multibody.Model, q, u, out []float64) { t.turn(m, q, u, out, false) }

// turn copies v into out and turns each angular block by R_FMᵀ (local) or
// R_FM, R_FM the rotation of the block's quaternion in q.
func (t *angularTurns) turn(m *multibody.Model, q, v, out []float64, local bool) {
	copy(out[:m.NV], v[:m.NV])
	if m.NQ == m.NV { // no quaternion: nothing to turn (multibody's linearCoordinates)
		return
	}
	t.blocks(m, q, v, out, local)
}

// blocks is turn's turn of each angular block, after the copy.
func (t *angularTurns) blocks(m *multibody.Model, q, v, out []float64, local bool) {
	if t.model != m || t.nv != m.NV || t.nq != m.NQ { // set's test, without its call
		t.find(m)
	}
	for b, vo := range t.v {
		qo := t.q[b]
		r := spatial.Quat{W: q[qo], X: q[qo+1], Y: q[qo+2], Z: q[qo+3]}
		if local {
			r = r.Conj()
		}
		w := r.Rotate(spatial.Vec3{v[vo], v[vo+1], v[vo+2]})
		out[vo], out[vo+1], out[vo+2] = w[0], w[1], w[2]
	}
}
