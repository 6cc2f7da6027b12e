package geometry

import (
	"fmt"
	"math"
	"testing"
)

func TestExplore(t *testing.T) {
	r := newRand(1)
	for _, ka := range allKinds {
		for _, kb := range allKinds {
			if ka > kb || (ka == HalfSpace && kb == HalfSpace) {
				continue
			}
			worst, worstN := 0.0, 0.0
			cnt := 0
			for range 60 {
				a, b := randShape(r, ka), randShape(r, kb)
				xa := pose(randUnit(r).Scale(0.3), randQuat(r))
				d := uniform(r, 0, 1.1) * (shapeSize(a) + shapeSize(b))
				if ka == HalfSpace {
					d = uniform(r, -0.5, 1.1) * shapeSize(b)
				}
				xb := pose(xa.P.Add(randUnit(r).Scale(d)), randQuat(r))
				cs := Collide(a, xa, b, xb, 100, nil)
				if len(cs) == 0 {
					t.Errorf("%v-%v none", ka, kb)
					continue
				}
				phi, n := oracle(a, xa, b, xb)
				c := deepest(cs)
				e := math.Abs(c.Phi - phi)
				en := c.Normal.Sub(n).Norm()
				if e > worst {
					worst = e
				}
				if en > worstN {
					worstN = en
				}
				if ka == Sphere && kb == Cylinder && en > 1e-4 {
					pb := newPosed(b, xb)
					fmt.Printf("SC: phi %g oracle %g nerr %g local %v r %g L %g rs %g n %v on %v\n", c.Phi, phi, en, pb.toLocal(xa.P), b.Radius, b.HalfLength, a.Radius, pb.rot.MulTVec(c.Normal), pb.rot.MulTVec(n))
				}
				if e > 1e-6 {
					cnt++
					if cnt < 4 {
						fmt.Printf("  %v-%v phi %g oracle %g  n %v oracle %v ncont %d\n", ka, kb, c.Phi, phi, c.Normal, n, len(cs))
					}
				}
			}
			fmt.Printf("%v-%v worst phi err %g normal err %g bad %d\n", ka, kb, worst, worstN, cnt)
		}
	}
}
