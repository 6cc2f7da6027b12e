package geometry

import (
	"fmt"
	"testing"
)

var polishIters, gjkIters int

func TestExploreCost(t *testing.T) {
	r := newRand(16)
	for _, kp := range kindPairs(false) {
		sa, xa, sb, xb := randomPair(r, kp[0], kp[1])
		if !usesGJK(kp[0], kp[1]) {
			continue
		}
		pa, pb := newPosed(sa, xa), newPosed(sb, xb)
		ca, cb := coreOf(&pa), coreOf(&pb)
		scale := pa.size() + pb.size()
		g := gjk(&ca, &cb, scale)
		fmt.Println(kp, "near", g.near, "dist", g.dist)
		u := g.normal.Neg()
		h := u.Dot(supportDiff(&ca, &cb, u).w)
		u2, h2 := sphereSearch(&ca, &cb, u, h, gjkPolishStep, scale)
		fmt.Println("  sphere search moved", u2.Sub(u).Norm(), h-h2)
	}
}
