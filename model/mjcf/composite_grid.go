package mjcf

import (
	"fmt"

	"github.com/stiction-sim/stiction/model/xmlutil"
)

// compositeTendonAttrs are the <tendon kind> attributes of a composite
// that MuJoCo 2.2.2 carries onto its tendons (OneComposite; limited, read
// from the <composite> element, is not carried).
var compositeTendonAttrs = []string{"group", "solreflimit", "solimplimit", "range", "margin", "stiffness", "damping", "frictionloss", "material", "rgba", "width"}

// compositeSiteAttrs are the composite's <site> attributes MuJoCo carries.
var compositeSiteAttrs = []string{"group", "size", "material", "rgba"}

// grid makes a 1-D or 2-D grid (MakeGrid): count[0]×count[1] bodies
// B<ix>_<iy> in the plane z = offset[2] at offset + spacing·(i − count/2),
// each with a sphere G<ix>_<iy>, a site S<ix>_<iy> and (unless pinned)
// three slide joints J<axis>_<ix>_<iy>; neighbours joined by straight
// spatial tendons T<dir>_<ix>_<iy> held at their initial length by tendon
// equalities (hard: solref 0.01 1, solimp 0.99 0.99, AdjustSoft level 0),
// and with kind="shear" the diagonals TS<ix>_<iy> (MakeShear).
func (k *composite) grid() ([]*xmlutil.Element, error) {
	var out []*xmlutil.Element
	for ix := 0; ix < k.count[0]; ix++ {
		for iy := 0; iy < k.count[1]; iy++ {
			pos := []float64{k.offset[0] + k.spacing*(float64(ix)-0.5*float64(k.count[0])), k.offset[1] + k.spacing*(float64(iy)-0.5*float64(k.count[1])), k.offset[2]}
			b := k.elem("body", "name", k.gridName("B", ix, iy), "pos", formatFloats(pos))
			add(b, k.geomElem("sphere", k.gridName("G", ix, iy), "0 0 0", ""), k.siteElem(k.gridName("S", ix, iy)))
			if !k.pinned(ix, iy) {
				for i, axis := range []string{"1 0 0", "0 1 0", "0 0 1"} {
					add(b, k.jointElem("main", fmt.Sprintf("%sJ%d_%d_%d", k.prefix, i, ix, iy), "slide", "0 0 0", axis))
				}
			}
			b.MarkAllUsed()
			out = append(out, b)
		}
	}
	for i := range 2 {
		di, dj := 1-i, i
		for ix := 0; ix < k.count[0]-di; ix++ {
			for iy := 0; iy < k.count[1]-dj; iy++ {
				name := fmt.Sprintf("%sT%d_%d_%d", k.prefix, i, ix, iy)
				if err := k.siteTendon("main", name, k.gridName("S", ix, iy), k.gridName("S", ix+di, iy+dj)); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, k.shear()
}

// shear adds, with <tendon kind="shear">, the diagonal tendons TS<ix>_<iy>
// of a grid or cloth and their equalities (MakeShear).
func (k *composite) shear() error {
	if k.tendons["shear"] == nil {
		return nil
	}
	for ix := 0; ix < k.count[0]-1; ix++ {
		for iy := 0; iy < k.count[1]-1; iy++ {
			if err := k.siteTendon("shear", k.gridName("TS", ix, iy), k.gridName("S", ix, iy), k.gridName("S", ix+1, iy+1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// gridName is prefix + kind + "<ix>_<iy>", MuJoCo's names of grid and
// cloth elements.
func (k *composite) gridName(kind string, ix, iy int) string {
	return fmt.Sprintf("%s%s%d_%d", k.prefix, kind, ix, iy)
}

// pinned reports whether a <pin coord> names grid element (ix, iy).
func (k *composite) pinned(ix, iy int) bool {
	for _, p := range k.pins {
		if p == [2]int{ix, iy} {
			return true
		}
	}
	return false
}

// siteElem returns a generated sphere site with the composite's site
// attributes.
func (k *composite) siteElem(name string) *xmlutil.Element {
	attrs := append([]string{"class", compositeClass, "name", name, "type", "sphere"}, copied(k.site, compositeSiteAttrs...)...)
	return k.elem("site", attrs...)
}

// siteTendon adds a straight spatial tendon of the given kind (main,
// shear) between sites s1 and s2, and the tendon equality that holds it at
// its initial length with the kind's solreffix and solimpfix (default: a
// grid's hard main tendons, AdjustSoft level 0; MuJoCo's defaults else).
func (k *composite) siteTendon(kind, name, s1, s2 string) error {
	t := k.elem("spatial", append([]string{"class", compositeClass, "name", name}, copied(k.tendons[kind], compositeTendonAttrs...)...)...)
	add(t, k.elem("site", "site", s1), k.elem("site", "site", s2))
	t.MarkAllUsed()
	ref, imp := defaultSolref, defaultSolimp
	if k.typ == "grid" && kind == "main" {
		ref[0], imp[0], imp[1] = 0.01, 0.99, 0.99
	}
	eq, err := k.fixed(k.tendons[kind], "tendon", "tendon1", name, ref[:], imp[:])
	if err != nil {
		return err
	}
	k.spatial, k.eqs = append(k.spatial, t), append(k.eqs, eq)
	return nil
}
