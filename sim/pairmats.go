package sim

import "github.com/stiction-sim/stiction/contact"

// A step of MuJoCo's integrators asks for a contact pair's combined
// material (contact.Combine of its two geometries' materials, mujocoSoft)
// up to three times: substeps, to leave out MuJoCo's row pairs
// (muJoCoRowPair); softTouching, to keep MuJoCo's touching pairs; and the
// contact assembler, for the pair's rows. The material depends on the two
// geometries alone, so the step combines it once: substeps keeps what it
// combined (stepMaterials), softTouching takes it from there, and the
// assembler takes softTouching's (contact.Assembler.Combined). The same
// Combine of the same two materials gives the same bits.

// pairMemo is the combined material of one contact pair of the step,
// with the pair's geometries, which softTouching checks before using it.
type pairMemo struct {
	geomA, geomB int
	pm           pairMaterial
}

// rememberMaterial appends pair pr's combined material pm to the step's
// materials (sim.ws.mj.staged.known), which substeps fills in the order
// of the step's pairs and detectContacts empties.
func (sim *Simulator) rememberMaterial(pr *contact.Pair, pm pairMaterial) {
	st := &sim.ws.mj.staged
	st.known = append(st.known, pairMemo{geomA: pr.GeomA, geomB: pr.GeomB, pm: pm})
}

// knownMaterial returns the combined material that substeps found for
// pair pr, the j-th of the step's pairs before softTouching dropped any,
// and whether it has one.
func (sim *Simulator) knownMaterial(j int, pr *contact.Pair) (pairMaterial, bool) {
	known := sim.ws.mj.staged.known
	if j >= len(known) || known[j].geomA != pr.GeomA || known[j].geomB != pr.GeomB {
		return pairMaterial{}, false
	}
	return known[j].pm, true
}

// combinedMaterials returns, in dst's storage, the materials of mats by
// pair, for contact.Assembler.Combined.
func combinedMaterials(mats []pairMaterial, dst []contact.Material) []contact.Material {
	dst = dst[:0]
	for i := range mats {
		dst = append(dst, mats[i].mat)
	}
	return dst
}
