package geometry

import (
	"fmt"
	"testing"
)

func TestExplore3(t *testing.T) {
	r := newRand(1)
	hist := map[string]int{}
	for _, ka := range []Kind{Sphere, Box, Capsule, Cylinder} {
		for range 200 {
			a, b := randShape(r, ka), randShape(r, Cylinder)
			xa := pose(randUnit(r).Scale(0.3), randQuat(r))
			d := uniform(r, 0, 1.1) * (shapeSize(a) + shapeSize(b))
			xb := pose(xa.P.Add(randUnit(r).Scale(d)), randQuat(r))
			pa, pb := newPosed(a, xa), newPosed(b, xb)
			ca, cb := coreOf(&pa), coreOf(&pb)
			scale := pa.size() + pb.size()
			g := gjk(&ca, &cb, scale)
			if !g.near {
				continue
			}
			var e epa
			if !e.init(&ca, &cb, &g.s, scale) {
				hist["initfail"]++
				continue
			}
			it := 0
			reason := "maxiter"
			for ; it < epaMaxIter; it++ {
				f := &e.f[e.minFace()]
				w := supportDiff(&ca, &cb, f.n)
				if f.n.Dot(w.w)-f.d <= epaTol*scale {
					reason = "conv"
					break
				}
				if !e.expand(e.minFace(), w, scale) {
					reason = "expandfail"
					break
				}
			}
			hist[fmt.Sprintf("%v %s %d", ka, reason, it/10*10)]++
		}
	}
	fmt.Println(hist)
}
