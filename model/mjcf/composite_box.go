package mjcf

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/model/xmlutil"
)

// softBoxTypes are the 3-D composites (MakeBox).
var softBoxTypes = map[string]bool{"box": true, "cylinder": true, "ellipsoid": true}

// softBox makes a soft box, cylinder or ellipsoid (MakeBox): the body
// holding the composite gets a sphere Gcenter of twice the geom's radius;
// every element of the count grid's outer shell is a body
// B<ix>_<iy>_<iz> on the shape (BoxProject), its z axis pointing out, with
// a slide joint J<ix>_<iy>_<iz> along it, held at 0 by a joint equality
// (solreffix) and tied to its +x, +y, +z shell neighbours by joint
// equalities (solrefsmooth); a fixed tendon T sums all the joints and a
// tendon equality holds the sum (the volume) constant.
func (k *composite) softBox(p *xmlutil.Element) ([]*xmlutil.Element, error) {
	size, err := k.geomSize()
	if err != nil {
		return nil, err
	}
	center := k.geomElem("sphere", k.prefix+"Gcenter", "0 0 0", "")
	setAttr(center, "size", formatFloats([]float64{2 * size[0]}))
	out := []*xmlutil.Element{center}
	tendon := k.elem("fixed", append([]string{"class", compositeClass, "name", k.prefix + "T"}, copied(k.tendons["main"], compositeTendonAttrs...)...)...)
	soft := [2][]float64{{0.02, 1}, {0.9, 0.9, 0.001, 0.5, 2}} // AdjustSoft level 1
	for ix := 0; ix < k.count[0]; ix++ {
		for iy := 0; iy < k.count[1]; iy++ {
			for iz := 0; iz < k.count[2]; iz++ {
				if !k.onShell(ix, iy, iz) {
					continue
				}
				name := k.boxName("J", ix, iy, iz)
				out = append(out, k.shellBody(ix, iy, iz, size))
				add(tendon, k.elem("joint", "joint", name, "coef", "1"))
				eq, err := k.fixed(k.joints["main"], "joint", "joint1", name, soft[0], soft[1])
				if err != nil {
					return nil, err
				}
				k.eqs = append(k.eqs, eq)
				for i := range 3 {
					n := [3]int{ix, iy, iz}
					n[i] = min(n[i]+1, k.count[i]-1)
					if n != [3]int{ix, iy, iz} && k.onShell(n[0], n[1], n[2]) {
						k.eqs = append(k.eqs, k.elem("joint", "joint1", name, "joint2", k.boxName("J", n[0], n[1], n[2]), "solref", k.smoothRef, "solimp", k.smoothImp))
					}
				}
			}
		}
	}
	tendon.MarkAllUsed()
	k.spatial = append(k.spatial, tendon)
	eq, err := k.fixed(k.tendons["main"], "tendon", "tendon1", k.prefix+"T", []float64{0.01, 1}, []float64{0.99, 0.99, 0.001, 0.5, 2})
	if err != nil {
		return nil, err
	}
	for _, e := range k.eqs {
		e.MarkAllUsed()
	}
	k.eqs = append(k.eqs, eq)
	for _, e := range out {
		e.MarkAllUsed()
	}
	return out, nil
}

// boxName is prefix + kind + "<ix>_<iy>_<iz>".
func (k *composite) boxName(kind string, ix, iy, iz int) string {
	return fmt.Sprintf("%s%s%d_%d_%d", k.prefix, kind, ix, iy, iz)
}

// onShell reports whether grid element (ix, iy, iz) is on the outer shell.
func (k *composite) onShell(ix, iy, iz int) bool {
	return ix == 0 || ix == k.count[0]-1 || iy == 0 || iy == k.count[1]-1 || iz == 0 || iz == k.count[2]-1
}

// shellBody returns shell element (ix, iy, iz): at the grid point mapped
// to [−1, 1]³ and projected on the shape (boxProject), turned so that its
// z axis points out, with its geom moved inwards by its radius (a
// capsule's by radius + half-length) and its slide joint along z.
func (k *composite) shellBody(ix, iy, iz int, size [3]float64) *xmlutil.Element {
	var pos [3]float64
	for i, n := range [3]int{ix, iy, iz} {
		pos[i] = 2.0*float64(n)/float64(k.count[i]-1) - 1
	}
	k.boxProject(&pos)
	z := pos
	normalize(z[:])
	b := k.elem("body", "name", k.boxName("B", ix, iy, iz), "pos", formatFloats(pos[:]), "zaxis", formatFloats(z[:]))
	gt, depth := "sphere", size[0]
	if k.geomType() == "capsule" {
		gt, depth = "capsule", size[0]+size[1]
	}
	add(b, k.geomElem(gt, k.boxName("G", ix, iy, iz), formatFloats([]float64{0, 0, -depth}), ""))
	add(b, k.jointElem("main", k.boxName("J", ix, iy, iz), "slide", "0 0 0", "0 0 1"))
	return b
}

// boxProject maps a point of [−1, 1]³ onto the composite's shape, of
// half-sizes spacing·(count − 1)/2 (BoxProject): scaled for a box; for a
// cylinder its xy part normalised and scaled by the larger of |x|, |y|;
// for an ellipsoid normalised first.
func (k *composite) boxProject(pos *[3]float64) {
	var size [3]float64
	for i := range size {
		size[i] = 0.5 * k.spacing * float64(k.count[i]-1)
	}
	switch k.typ {
	case "cylinder":
		l0 := math.Max(math.Abs(pos[0]), math.Abs(pos[1]))
		normalize(pos[:2])
		pos[0] *= size[0] * l0
		pos[1] *= size[1] * l0
		pos[2] *= size[2]
		return
	case "ellipsoid":
		normalize(pos[:])
	}
	for i := range pos {
		pos[i] *= size[i]
	}
}

// normalize scales v to unit length (mjuu_normvec: left alone when its
// squared norm is below MuJoCo's mjEPS, 1e-14).
func normalize(v []float64) {
	var n float64
	for _, x := range v {
		n += x * x
	}
	if n < 1e-14 {
		return
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] /= n
	}
}

// geomSize reads the composite geom's size (up to three numbers, MuJoCo's
// default 0).
func (k *composite) geomSize() ([3]float64, error) {
	var size [3]float64
	if k.geom == nil {
		return size, nil
	}
	sz, err := k.c.floats(view{e: k.geom}, "size", -1, nil)
	if len(sz) > 3 {
		return size, k.c.r.Errorf(k.geom, "size", "want 1 to 3 numbers")
	}
	copy(size[:], sz)
	return size, err
}

// setAttr sets attribute name of generated element e.
func setAttr(e *xmlutil.Element, name, value string) {
	for i := range e.Attrs {
		if e.Attrs[i].Name == name {
			e.Attrs[i].Value = value
			return
		}
	}
	e.Attrs = append(e.Attrs, xmlutil.Attr{Name: name, Value: value, Line: e.Line})
}
