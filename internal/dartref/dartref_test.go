package dartref

import (
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/urdf"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
)

const erdDir = "../../model/urdf/testdata/example-robot-data"

// tol is the largest relative difference of M and the bias accepted.
const tol = 1e-9

// TestExampleRobotDataAgainstDART compares every URDF of example-robot-data
// (model/urdf/testdata, without its visual and collision elements, which
// M and the bias do not depend on) between Stiction and DART: the degrees
// of freedom (by joint name), the total mass, and M(q) and the bias at
// q = 0, at a random q and at a random (q, v), after Stiction's inertia
// repairs are applied on both sides. It logs one row per robot.
func TestExampleRobotDataAgainstDART(t *testing.T) {
	if _, err := Python(); err != nil {
		t.Skipf("no DART reference: %v", err)
	}
	var files []string
	filepath.WalkDir(erdDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".urdf") {
			files = append(files, p)
		}
		return err
	})
	sort.Strings(files)
	if len(files) != 69 {
		t.Fatalf("%d URDF files in %s, want 69", len(files), erdDir)
	}
	both, onlyS, onlyD, neither, compared := 0, 0, 0, 0, 0
	var worstM, worstB float64
	for _, f := range files {
		rel, _ := filepath.Rel(erdDir, f)
		rel = strings.TrimPrefix(rel, "robots/")
		row, sOK, dOK, eM, eB, err := compare(f)
		switch {
		case sOK && dOK:
			both++
		case sOK:
			onlyS++
		case dOK:
			onlyD++
			t.Errorf("%s: DART loads it, Stiction does not: %v", rel, err)
		default:
			neither++
		}
		if err != nil && sOK && dOK {
			t.Errorf("%s: %v", rel, err)
		}
		if !math.IsNaN(eM) {
			compared++
			worstM, worstB = math.Max(worstM, eM), math.Max(worstB, eB)
		}
		t.Logf("%-62s %s", rel, row)
	}
	t.Logf("without geometry: both load %d, Stiction only %d, DART only %d, neither %d; compared %d: worst relative M %.2g, bias %.2g", both, onlyS, onlyD, neither, compared, worstM, worstB)
	if worstM > tol || worstB > tol {
		t.Errorf("worst relative difference M %.3g, bias %.3g > %g", worstM, worstB, tol)
	}
}

// compare loads one file on both sides and compares them. It returns a
// table row, whether each side loads, the worst relative differences of M
// and the bias (NaN when not compared) and the first problem found.
func compare(path string) (row string, sOK, dOK bool, eM, eB float64, err error) {
	eM, eB = math.NaN(), math.NaN()
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false, false, eM, eB, err
	}
	data = urdf.StripGeometry(data)
	im, serr := urdf.Parse(path, data, model.Options{})
	var b *scene.Built
	if serr == nil {
		b, serr = scene.Build(im.Scene)
	}
	sOK = serr == nil
	inertia := map[string]Inertial{}
	original := linkNames(data) // Stiction's link name → the file's
	if sOK {
		for _, l := range im.Links {
			if l.Repaired != "" {
				inertia[original[l.Name]] = Inertial{Mass: l.Mass, COM: l.COM, I: l.Inertia}
			}
		}
	}
	// Stiction's 1-dof joints by name, and three states.
	type dof struct {
		name   string
		q, v   int
		lo, hi float64
	}
	var dofs []dof
	if sOK {
		for _, bd := range b.Model.Bodies {
			if bd.Tree < 0 || bd.Joint.NV() == 0 {
				continue
			}
			if bd.Joint.NV() != 1 {
				return "multi-dof joint: not compared", sOK, false, eM, eB, nil
			}
			d := dof{name: bd.Joint.Name, q: bd.QOff, v: bd.VOff, lo: -math.Pi, hi: math.Pi}
			if len(bd.Joint.Lower) == 1 {
				d.lo, d.hi = bd.Joint.Lower[0], bd.Joint.Upper[0]
			}
			dofs = append(dofs, d)
		}
	}
	r := rand.New(rand.NewPCG(27, uint64(len(path))))
	states := make([]State, 3)
	for k := range states {
		states[k] = State{Q: map[string]float64{}, V: map[string]float64{}}
		for _, d := range dofs {
			if k > 0 {
				states[k].Q[d.name] = d.lo + (d.hi-d.lo)*r.Float64()
			}
			if k == 2 {
				states[k].V[d.name] = 2*r.Float64() - 1
			}
		}
	}
	res, derr := Query(data, inertia, states)
	dOK = derr == nil
	switch {
	case !sOK && !dOK:
		return fmt.Sprintf("neither loads (Stiction: %s; DART: %s)", short(serr), short(derr)), false, false, eM, eB, nil
	case !sOK:
		return "Stiction refuses: " + short(serr), false, true, eM, eB, serr
	case !dOK:
		return fmt.Sprintf("DART refuses (%s); Stiction loads, %d dofs", short(derr), len(dofs)), true, false, eM, eB, nil
	}
	if len(res.Dofs) != len(dofs) {
		return fmt.Sprintf("dofs differ: Stiction %d, DART %d", len(dofs), len(res.Dofs)), true, true, eM, eB, fmt.Errorf("dofs: Stiction %d, DART %d", len(dofs), len(res.Dofs))
	}
	idx := map[string]int{}
	for i, n := range res.Dofs {
		idx[n] = i
	}
	for _, d := range dofs {
		if _, ok := idx[d.name]; !ok {
			return "joint " + d.name + " not in DART", true, true, eM, eB, fmt.Errorf("joint %q has no DART dof of that name", d.name)
		}
	}
	var mass float64
	for _, l := range im.Links {
		mass += l.Mass
	}
	eMass := math.Abs(mass-res.Mass) / math.Max(res.Mass, 1e-300)
	eM, eB = 0, 0
	n := len(dofs)
	for k, st := range states {
		for _, d := range dofs {
			b.State.Q[d.q] = st.Q[d.name]
			b.State.V[d.v] = st.V[d.name]
		}
		M := massMatrix(b.Model, b.State)
		f := make([]float64, b.Model.NV)
		b.Model.BiasForces(b.State, f)
		var dm, sm, db, sb float64
		for i := range n {
			di := idx[dofs[i].name]
			for j := range n {
				dj := idx[dofs[j].name]
				dm = math.Max(dm, math.Abs(M[dofs[i].v][dofs[j].v]-res.States[k].M[di][dj]))
				sm = math.Max(sm, math.Abs(res.States[k].M[di][dj]))
			}
			// Stiction's bias is τ_g − C, DART's C + g: opposite signs.
			db = math.Max(db, math.Abs(-f[dofs[i].v]-res.States[k].Bias[di]))
			sb = math.Max(sb, math.Abs(res.States[k].Bias[di]))
		}
		if sm > 0 {
			eM = math.Max(eM, dm/sm)
		}
		if sb > 0 {
			eB = math.Max(eB, db/sb)
		}
	}
	row = fmt.Sprintf("both load: %2d dofs, mass %.6g kg (Δ %.1e), M %.1e, bias %.1e, %d links repaired", n, res.Mass, eMass, eM, eB, len(inertia))
	if eMass > tol {
		err = fmt.Errorf("total mass: Stiction %.12g, DART %.12g", mass, res.Mass)
	}
	return row, true, true, eM, eB, err
}

// massMatrix returns the dense M(q) (block diagonal by tree).
func massMatrix(m *multibody.Model, s *multibody.State) [][]float64 {
	M := make([][]float64, m.NV)
	for i := range M {
		M[i] = make([]float64, m.NV)
	}
	for ti, tr := range m.Trees {
		blk := make([]float64, tr.NV*tr.NV)
		m.TreeMassMatrix(s, ti, blk)
		for i := range tr.NV {
			for j := range tr.NV {
				M[tr.VOffset+i][tr.VOffset+j] = blk[i*tr.NV+j]
			}
		}
	}
	return M
}

func short(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

var linkNameRE = regexp.MustCompile(`<link\s+name="([^"]*)"`)

// linkNames maps the body name Stiction gives each link (model/urdf
// replaces '.', '=', '[' and ']' by '_') to the link's name in the file.
func linkNames(data []byte) map[string]string {
	out := map[string]string{}
	for _, m := range linkNameRE.FindAllSubmatch(data, -1) {
		n := string(m[1])
		out[strings.NewReplacer(".", "_", "=", "_", "[", "_", "]", "_").Replace(n)] = n
	}
	return out
}
