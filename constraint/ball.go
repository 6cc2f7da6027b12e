package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// axes are the world axes, the rows of point-on-point constraints.
var axes = [3]spatial.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// Ball is a point-on-point constraint: the material point PointA of body A
// (body frame) and PointB of body B coincide. g = x_B − x_A in the world
// frame (3 rows), J = J_B(x_B) − J_A(x_A) with the point Jacobians of the
// two material points; γ = y (solver.Bilateral), the impulse on B (A gets
// −γ). BodyA may be −1, the world (PointA is then a world point).
type Ball struct {
	Name           string
	BodyA, BodyB   int
	PointA, PointB spatial.Vec3
	Compliance     Compliance
}

func (b *Ball) validate(m *multibody.Model) error {
	if err := pair(m, b.BodyA, b.BodyB); err != nil {
		return err
	}
	if !b.PointA.IsFinite() || !b.PointB.IsFinite() {
		return errf("points %v, %v must be finite", b.PointA, b.PointB)
	}
	return b.Compliance.validate()
}

// pair checks two bodies of a two-body constraint: existing, different, not
// both fixed to the world.
func pair(m *multibody.Model, a, b int) error {
	if err := body(m, a, true); err != nil {
		return err
	}
	if err := body(m, b, true); err != nil {
		return err
	}
	moving := func(x int) bool { return x >= 0 && m.Bodies[x].Tree >= 0 }
	if a == b || (!moving(a) && !moving(b)) {
		return errf("bodies %d and %d: need two different bodies, at least one of them moving", a, b)
	}
	return nil
}

// worldPoint returns the world position of body b's point p (b = −1: p is a
// world point).
func worldPoint(kin *multibody.Workspace, b int, p spatial.Vec3) spatial.Vec3 {
	if b < 0 {
		return p
	}
	return kin.Pose(b).Apply(p)
}

// ball appends the ball constraint's block.
func (a *Assembler) ball(c *asmCtx, b *Ball, i int) {
	xa, xb := worldPoint(c.kin, b.BodyA, b.PointA), worldPoint(c.kin, b.BodyB, b.PointB)
	g := xb.Sub(xa)
	a.begin(3)
	a.addPoint(c, b.BodyB, xb, 0, axes[:], 1)
	a.addPoint(c, b.BodyA, xa, 0, axes[:], -1)
	k, row := a.emit(c, solver.Bilateral)
	vec := a.diagonalize(c)
	gr := a.rotate(vec, [6]float64{g[0], g[1], g[2]}, 3)
	if cp := b.Compliance; cp.mujoco() {
		// MuJoCo's soft connect: R and the impedance d(‖g‖) are the same
		// for the three rows (Weight set: isotropic), so the rotated rows
		// are MuJoCo's world-axis rows' problem in another frame.
		d := ImpedanceOf(&cp.SolImp, g.Norm())
		for r := range 3 {
			c.p.R[row+r], c.p.VHat[row+r] = cp.softAt(d, a.softWeight(c, cp.Weight, r), gr[r], a.rowVelocity(c, r), c.prm.Beta, c.in.DT)
			if a.null[r] {
				c.p.VHat[row+r] = 0
			}
		}
	} else {
		for r := range 3 {
			a.setEq(c, row+r, r, &b.Compliance, gr[r])
		}
	}
	a.add(entry{typ: TypeBall, item: int32(i), block: int32(k), violation: g.Norm(), bound: math.Inf(1), vec: int32(vec)})
}

// Distance keeps the material points PointA of A and PointB of B at
// distance Length > 0: g = ‖x_B − x_A‖ − Length, J = n̂ᵀ(J_B − J_A) with
// n̂ = (x_B − x_A)/‖x_B − x_A‖ (1 row, solver.Bilateral: it pushes and
// pulls). When the points coincide n̂ is undefined; the row is then along
// world x.
type Distance struct {
	Name           string
	BodyA, BodyB   int
	PointA, PointB spatial.Vec3
	Length         float64
	Compliance     Compliance
}

func (d *Distance) validate(m *multibody.Model) error {
	if err := pair(m, d.BodyA, d.BodyB); err != nil {
		return err
	}
	if !d.PointA.IsFinite() || !d.PointB.IsFinite() || !(d.Length > 0) || math.IsInf(d.Length, 0) {
		return errf("points %v, %v and length %v must be finite, length > 0", d.PointA, d.PointB, d.Length)
	}
	return d.Compliance.validate()
}

// distance appends the distance constraint's block.
func (a *Assembler) distance(c *asmCtx, d *Distance, i int) {
	xa, xb := worldPoint(c.kin, d.BodyA, d.PointA), worldPoint(c.kin, d.BodyB, d.PointB)
	n, l := xb.Sub(xa).Normalize()
	if !(l > 0) {
		n = axes[0]
	}
	g := l - d.Length
	dirs := [1]spatial.Vec3{n}
	a.begin(1)
	a.addPoint(c, d.BodyB, xb, 0, dirs[:], 1)
	a.addPoint(c, d.BodyA, xa, 0, dirs[:], -1)
	k, row := a.emit(c, solver.Bilateral)
	a.setEq(c, row, 0, &d.Compliance, g)
	a.addItem(TypeDistance, i, k, math.Abs(g), math.Inf(1))
}

// rowVelocity returns J_k v0, the velocity of row k of the block just
// emitted at the start of the step. It reads each clique's offset and
// size in place (the six-word Clique was copied for each block).
func (a *Assembler) rowVelocity(c *asmCtx, k int) float64 {
	var jv0 float64
	for b := range a.jr.N {
		q := &c.p.Cliques[a.jr.Cliques[b]]
		jd := c.p.JBlockData(len(c.p.JBlock) - a.jr.N + b)
		for i := range q.Size {
			jv0 += jd[k*q.Size+i] * c.in.V0[q.Offset+i]
		}
	}
	return jv0
}
