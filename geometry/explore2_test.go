package geometry

import (
	"fmt"
	"testing"
)

func TestExplore2(t *testing.T) {
	r := newRand(1)
	for range 400 {
		a, b := randShape(r, Sphere), randShape(r, Cylinder)
		xa := pose(randUnit(r).Scale(0.3), randQuat(r))
		d := uniform(r, 0, 1.1) * (shapeSize(a) + shapeSize(b))
		xb := pose(xa.P.Add(randUnit(r).Scale(d)), randQuat(r))
		cs := Collide(a, xa, b, xb, 100, nil)
		phi, n := oracle(a, xa, b, xb)
		pa, pb := newPosed(a, xa), newPosed(b, xb)
		ca, cb := coreOf(&pa), coreOf(&pb)
		g := gjk(&ca, &cb, pa.size()+pb.size())
		c := deepest(cs)
		loc := pb.toLocal(xa.P)
		if c.Normal.Sub(n).Norm() > 1e-5 {
			fmt.Printf("phi %g oracle %g err %.2g nerr %.2g near %v local %v r %g L %g\n", c.Phi, phi, c.Phi-phi, c.Normal.Sub(n).Norm(), g.near, loc, b.Radius, b.HalfLength)
		}
	}
}
