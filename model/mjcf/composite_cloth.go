package mjcf

import (
	"fmt"
	"math"
	"strings"

	"github.com/stiction-sim/stiction/model/xmlutil"
)

// cloth makes a 2-D cloth (MakeCloth): the body holding the composite,
// named prefix+"B<ox>_<oy>", is element (ox, oy); its column of bodies
// hangs from it in two chains (+y, then −y), and so does the column of
// every body of its row, which hangs from it in two chains (+x, then −x),
// each body the child of its neighbour towards the root (AddClothBody).
// The rows other than the root's are joined by straight spatial tendons
// T<ix>_<iy> held by tendon equalities, and with kind="shear" the
// diagonals (MakeShear).
func (k *composite) cloth(p *xmlutil.Element) ([]*xmlutil.Element, error) {
	ox, oy, err := k.clothRoot(p)
	if err != nil {
		return nil, err
	}
	root, err := k.clothBody(nil, ox, oy, ox, oy)
	if err != nil {
		return nil, err
	}
	if err := k.clothColumn(root, ox, oy); err != nil {
		return nil, err
	}
	for _, dir := range []int{1, -1} { // the root's row: right, then left
		prev := root
		for ix := ox; ix+dir >= 0 && ix+dir < k.count[0]; ix += dir {
			b, err := k.clothBody(prev, ix, oy, ix+dir, oy)
			if err != nil {
				return nil, err
			}
			if err := k.clothColumn(b, ix+dir, oy); err != nil {
				return nil, err
			}
			prev = b
		}
	}
	for iy := 0; iy < k.count[1]; iy++ {
		if iy == oy {
			continue
		}
		for ix := 0; ix < k.count[0]-1; ix++ {
			if err := k.siteTendon("main", fmt.Sprintf("%sT%d_%d", k.prefix, ix, iy), k.gridName("S", ix, iy), k.gridName("S", ix+1, iy)); err != nil {
				return nil, err
			}
		}
	}
	if err := k.shear(); err != nil {
		return nil, err
	}
	root.MarkAllUsed()
	return root.Children, nil
}

// clothRoot reads the indices of the cloth's root body from its name,
// prefix+"B<ox>_<oy>" (MakeCloth).
func (k *composite) clothRoot(p *xmlutil.Element) (int, int, error) {
	name, _ := p.Attr("name")
	head := k.prefix + "B"
	var ox, oy int
	var c byte
	if p.Name != "body" || !strings.HasPrefix(name, head) {
		return 0, 0, k.c.r.Errorf(k.e, "", "%s must be the beginning of the name of the cloth's body (%q)", head, name)
	}
	if n, _ := fmt.Sscanf(name[len(head):], "%d%c%d", &ox, &c, &oy); n != 3 || c != '_' {
		return 0, 0, k.c.r.Errorf(k.e, "", "the name of the cloth's body (%q) must contain its X_Y coordinates after %s", name, head)
	}
	if ox < 0 || ox >= k.count[0] || oy < 0 || oy >= k.count[1] {
		return 0, 0, k.c.r.Errorf(k.e, "count", "the cloth's body %q is out of range (count %d %d)", name, k.count[0], k.count[1])
	}
	return ox, oy, nil
}

// clothColumn hangs the column of element (ix, iy) from body b: the chain
// towards +y, then the chain towards −y.
func (k *composite) clothColumn(b *xmlutil.Element, ix, iy int) error {
	for _, dir := range []int{1, -1} {
		prev := b
		for y := iy; y+dir >= 0 && y+dir < k.count[1]; y += dir {
			c, err := k.clothBody(prev, ix, y, ix, y+dir)
			if err != nil {
				return err
			}
			prev = c
		}
	}
	return nil
}

// clothBody adds cloth element (ix1, iy1) as a child of parent, element
// (ix, iy) (AddClothBody); parent nil: the root, whose geom and site go in
// the returned holder element. The geom alternates between the body's x
// and y axes; flatinertia > 0 gives the body the geom's mass and the
// inertia of a box spacing × spacing × flatinertia·spacing; a non-root
// body has two hinges at its parent's origin (about y and z along a row,
// about x and z along a column), and the twist and stretch joints if asked
// for.
func (k *composite) clothBody(parent *xmlutil.Element, ix, iy, ix1, iy1 int) (*xmlutil.Element, error) {
	dx, dy := k.spacing*float64(ix1-ix), k.spacing*float64(iy1-iy)
	b := k.elem("body", "name", k.gridName("B", ix1, iy1), "pos", formatFloats([]float64{dx, dy, 0}))
	quat := "0.5 0.5 0.5 0.5"
	if (ix1+iy1)%2 != 0 {
		q := math.Sqrt(0.5)
		quat = formatFloats([]float64{q, q, 0, 0})
	}
	g := k.geomElem(k.geomType(), k.gridName("G", ix1, iy1), "0 0 0", quat)
	add(b, g)
	if err := k.flatInertia(b); err != nil {
		return nil, err
	}
	add(b, k.siteElem(k.gridName("S", ix1, iy1)))
	if parent == nil {
		return b, nil
	}
	add(parent, b)
	jpos := formatFloats([]float64{-dx, -dy, 0})
	axes, along := [2]string{"0 1 0", "0 0 1"}, "1 0 0"
	if ix == ix1 {
		axes, along = [2]string{"1 0 0", "0 0 1"}, "0 1 0"
	}
	for i, axis := range axes {
		add(b, k.jointElem("main", fmt.Sprintf("%sJ%d_%d_%d", k.prefix, i, ix1, iy1), "hinge", jpos, axis))
	}
	if err := k.extraJoints(b, fmt.Sprintf("%d_%d", ix1, iy1), jpos, along); err != nil {
		return nil, err
	}
	return b, nil
}

// flatInertia gives cloth body b, when flatinertia > 0, an explicit
// <inertial>: the geom's mass (its mass, else density × MuJoCo's volume,
// mjCGeom::GetVolume) at the body's origin, with the diagonal inertia of a
// box of half-sizes spacing/2, spacing/2, flatinertia·spacing/2.
func (k *composite) flatInertia(b *xmlutil.Element) error {
	if k.flat <= 0 {
		return nil
	}
	m, err := k.geomMass()
	if err != nil {
		return err
	}
	h := [3]float64{0.5 * k.spacing, 0.5 * k.spacing, 0.5 * k.spacing * k.flat}
	in := []float64{m * (h[1]*h[1] + h[2]*h[2]) / 3, m * (h[0]*h[0] + h[2]*h[2]) / 3, m * (h[0]*h[0] + h[1]*h[1]) / 3}
	add(b, k.elem("inertial", "pos", "0 0 0", "mass", formatFloats([]float64{m}), "diaginertia", formatFloats(in)))
	return nil
}

// geomMass is the mass of the composite's geom: its mass, else density
// (default 1000) times MuJoCo's volume of the shape.
func (k *composite) geomMass() (float64, error) {
	v := view{e: k.geom}
	if k.geom == nil {
		return 0, nil
	}
	if k.geom.Has("mass") {
		return k.c.float(v, "mass", 0)
	}
	rho, err := k.c.float(v, "density", 1000)
	if err != nil {
		return 0, err
	}
	size, err := k.geomSize()
	if err != nil {
		return 0, err
	}
	var vol float64
	switch k.geomType() {
	case "sphere":
		vol = 4.0 / 3.0 * math.Pi * size[0] * size[0] * size[0]
	case "capsule":
		vol = math.Pi * (size[0]*size[0]*2*size[1] + 4.0/3.0*size[0]*size[0]*size[0])
	case "ellipsoid":
		vol = 4.0 / 3.0 * math.Pi * size[0] * size[1] * size[2]
	}
	return rho * vol, nil
}
