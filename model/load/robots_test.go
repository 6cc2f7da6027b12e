package load

import (
	"encoding/xml"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/embedded"
	"github.com/stiction-sim/stiction/model/mesh"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

const (
	iiwaURDF    = "drake_models/iiwa_description/urdf/iiwa14_spheres_dense_collision.urdf"
	iiwaPolyURD = "drake_models/iiwa_description/urdf/iiwa14_polytope_collision.urdf"
	iiwaPrimURD = "drake_models/iiwa_description/urdf/iiwa14_primitive_collision.urdf"
	iiwaSDF     = "drake_models/iiwa_description/sdf/iiwa14_polytope_collision.sdf"
	iiwaMJCF    = "mujoco_menagerie/kuka_iiwa_14/iiwa14.xml"
	iiwaScene   = "mujoco_menagerie/kuka_iiwa_14/scene.xml"
	handURDF    = "drake_models/allegro_hand_description/urdf/allegro_hand_description_right.urdf"
	handSDF     = "drake_models/allegro_hand_description/sdf/allegro_hand_description_right.sdf"
	handMJCF    = "mujoco_menagerie/wonik_allegro/right_hand.xml"
	handScene   = "mujoco_menagerie/wonik_allegro/scene_right.xml"
)

// modelPath returns the file-system path of an embedded robot model file
// (package model/embedded), rel being its path in the embedded tree.
func modelPath(t testing.TB, rel string) string {
	t.Helper()
	p, err := embedded.Path(embedded.Scheme + rel)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// load imports and builds a model file.
func load(t testing.TB, rel string, opts model.Options) (*scene.Built, *model.Import) {
	t.Helper()
	im, err := Model(modelPath(t, rel), opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	return b, im
}

// massMatrix returns the dense M(q) of the state (block diagonal by tree).
func massMatrix(m *multibody.Model, s *multibody.State) [][]float64 {
	n := m.NV
	M := make([][]float64, n)
	for i := range M {
		M[i] = make([]float64, n)
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

// cholesky reports whether the symmetric matrix is positive definite and
// returns its smallest pivot.
func cholesky(M [][]float64) (bool, float64) {
	n := len(M)
	L := make([][]float64, n)
	minPivot := math.Inf(1)
	for i := range L {
		L[i] = make([]float64, n)
	}
	for j := range n {
		s := M[j][j]
		for k := range j {
			s -= L[j][k] * L[j][k]
		}
		if !(s > 0) {
			return false, s
		}
		minPivot = math.Min(minPivot, s)
		L[j][j] = math.Sqrt(s)
		for i := j + 1; i < n; i++ {
			t := M[i][j]
			for k := range j {
				t -= L[i][k] * L[j][k]
			}
			L[i][j] = t / L[j][j]
		}
	}
	return true, minPivot
}

// randomize sets every joint coordinate to a random value within its
// limits (±π for unlimited revolute joints; free bodies keep their pose).
func randomize(r *rand.Rand, m *multibody.Model, s *multibody.State) {
	for _, b := range m.Bodies {
		if b.Tree < 0 || (b.Joint.Type != multibody.JointRevolute && b.Joint.Type != multibody.JointPrismatic) {
			continue
		}
		lo, hi := -math.Pi, math.Pi
		if len(b.Joint.Lower) == 1 {
			lo, hi = b.Joint.Lower[0], b.Joint.Upper[0]
		}
		s.Q[b.QOff] = lo + (hi-lo)*r.Float64()
	}
}

func totalMass(im *model.Import) float64 {
	var m float64
	for _, l := range im.Links {
		m += l.Mass
	}
	return m
}

// TestRobotModels loads every robot model, checks its size, its total mass
// and that M(q) is symmetric positive definite at 20 random joint
// configurations within the joint limits.
func TestRobotModels(t *testing.T) {
	for _, c := range []struct {
		file           string
		nq, nv, bodies int
		geoms, visuals int
		mass           float64 // 0: checked by TestMJCFHandMass
		floating       bool
	}{
		{iiwaURDF, 7, 7, 11, 46, 15, 30.61, false},
		{iiwaPolyURD, 7, 7, 11, 1, 15, 30.61, false},
		{iiwaSDF, 7, 7, 8, 1, 15, 30.61, false},
		{iiwaMJCF, 7, 7, 8, 46, 15, 30.61, false},
		{iiwaScene, 7, 7, 9, 47, 15, 30.61, false},
		{iiwaURDF, 14, 13, 11, 46, 15, 30.61, true},
		{handURDF, 16, 16, 22, 21, 21, 0.9549, false},
		{handSDF, 16, 16, 17, 20, 21, 0.9549, false},
		{handMJCF, 16, 16, 21, 21, 21, 0, false},
		{handScene, 23, 22, 23, 23, 21, 0, false},
	} {
		name := filepath.Base(c.file)
		if c.floating {
			name += " (floating)"
		}
		t.Run(name, func(t *testing.T) {
			b, im := load(t, c.file, model.Options{Floating: c.floating})
			m := b.Model
			if m.NQ != c.nq || m.NV != c.nv || len(m.Bodies) != c.bodies || len(m.Geometries) != c.geoms || len(m.Visuals) != c.visuals {
				t.Errorf("nq %d nv %d bodies %d geoms %d visuals %d, want %d %d %d %d %d", m.NQ, m.NV, len(m.Bodies), len(m.Geometries), len(m.Visuals), c.nq, c.nv, c.bodies, c.geoms, c.visuals)
			}
			if c.mass > 0 && math.Abs(totalMass(im)-c.mass) > 1e-12 {
				t.Errorf("total mass %.15g, want %g", totalMass(im), c.mass)
			}
			r := rand.New(rand.NewPCG(1, 2))
			worst := math.Inf(1)
			for range 20 {
				randomize(r, m, b.State)
				M := massMatrix(m, b.State)
				for i := range M {
					for j := range i {
						if M[i][j] != M[j][i] {
							t.Fatalf("M not symmetric: M[%d][%d] = %v, M[%d][%d] = %v", i, j, M[i][j], j, i, M[j][i])
						}
					}
				}
				ok, p := cholesky(M)
				if !ok {
					t.Fatalf("M(q) not positive definite at q = %v (pivot %g)", b.State.Q, p)
				}
				worst = math.Min(worst, p)
			}
			t.Logf("smallest Cholesky pivot over 20 configurations: %.3g", worst)
		})
	}
}

// TestPrimitiveCollisionURDF loads the iiwa URDF whose link 6 and 7
// collision meshes become convex hulls (link 6's once failed in
// geometry.NewConvexHull: see geometry.TestHullLink6).
func TestPrimitiveCollisionURDF(t *testing.T) {
	im, err := Model(modelPath(t, iiwaPrimURD), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b.Model.Geometries); n != 8 {
		t.Errorf("%d geometries, want 6 cylinders + 2 meshes", n)
	}
}

// TestMJCFHandMass: the Menagerie Allegro hand takes its mass from its
// visual meshes at density 800 (its collision geoms have mass 0). Its
// links weigh what MuJoCo 2.2.2 gives them (mj_loadXML, body_mass summed:
// 0.5307240789194411 kg), whose mesh rule (<compiler exactmeshinertia>
// false: the equivalent inertia box's volume, pyramids taken positive) is
// not the solids' own: 800 times the meshes' volume, computed here from
// the mesh files by package mesh, is 0.357 kg.
func TestMJCFHandMass(t *testing.T) {
	const mujoco = 0.5307240789194411
	_, im := load(t, handMJCF, model.Options{})
	var vol float64
	for _, b := range im.Scene.Bodies {
		for _, v := range b.Visuals {
			m, err := mesh.Load(v.Shape.File)
			if err != nil {
				t.Fatal(err)
			}
			p, err := m.MassProperties()
			if err != nil {
				t.Fatal(err)
			}
			vol += p.Volume
		}
	}
	if got := totalMass(im); math.Abs(got-mujoco) > 1e-9*mujoco {
		t.Errorf("total mass %.16g, MuJoCo 2.2.2 %.16g", got, mujoco)
	}
	t.Logf("MJCF Allegro: %.6g kg (the meshes' solids: %.6g kg); Drake URDF: 0.9549 kg", totalMass(im), 800*vol)
}

// rpyMat is R = Rz(y) Ry(p) Rx(r), written out here independently of
// package model.
func rpyMat(r, p, y float64) spatial.Mat3 {
	cr, sr, cp, sp, cy, sy := math.Cos(r), math.Sin(r), math.Cos(p), math.Sin(p), math.Cos(y), math.Sin(y)
	return spatial.Mat3{
		{cy * cp, cy*sp*sr - sy*cr, cy*sp*cr + sy*sr},
		{sy * cp, sy*sp*sr + cy*cr, sy*sp*cr - cy*sr},
		{-sp, cp * sr, cp * cr},
	}
}

func nums(t *testing.T, s string, n int) []float64 {
	t.Helper()
	f := strings.Fields(s)
	if s == "" {
		f = make([]string, n)
		for i := range f {
			f[i] = "0"
		}
	}
	out := make([]float64, len(f))
	for i, x := range f {
		v, err := strconv.ParseFloat(strings.Trim(x, `"`), 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		out[i] = v
	}
	return out
}

// fileInertia is one link's mass properties as written in a file.
type fileInertia struct {
	name string
	mass float64
	com  spatial.Vec3
	I    spatial.Mat3 // about the centre of mass, link frame
}

// checkInertias compares the file's values with the import's Links and,
// for links that move, with the built model's bodies.
func checkInertias(t *testing.T, want []fileInertia, b *scene.Built, im *model.Import) {
	t.Helper()
	links := map[string]model.Link{}
	for _, l := range im.Links {
		links[l.Name] = l
	}
	for _, w := range want {
		l, ok := links[w.name]
		if !ok {
			t.Errorf("link %s missing", w.name)
			continue
		}
		if l.Mass != w.mass || l.COM.Sub(w.com).Norm() > 1e-15 || l.Inertia.Sub(w.I).FrobeniusNorm() > 1e-15*(1+w.I.FrobeniusNorm()) {
			t.Errorf("%s: imported mass %v com %v I %v; file %v %v %v", w.name, l.Mass, l.COM, l.Inertia, w.mass, w.com, w.I)
		}
		if k := b.Model.BodyByName(w.name); k >= 0 && b.Model.Bodies[k].Tree >= 0 && w.mass > 0 {
			in := b.Model.Bodies[k].Inertia
			if in.Mass != w.mass || in.Com.Sub(w.com).Norm() > 1e-15 || in.Icom.Sub(w.I).FrobeniusNorm() > 1e-15*(1+w.I.FrobeniusNorm()) {
				t.Errorf("%s: model mass %v com %v I %v; file %v %v %v", w.name, in.Mass, in.Com, in.Icom, w.mass, w.com, w.I)
			}
		}
	}
	if len(want) == 0 {
		t.Error("no inertials read from the file")
	}
}

// TestInertialsMatchURDF reads every <inertial> of the URDF files with
// encoding/xml and compares it with the import and the model.
func TestInertialsMatchURDF(t *testing.T) {
	type urdf struct {
		Links []struct {
			Name     string `xml:"name,attr"`
			Inertial *struct {
				Origin struct {
					XYZ string `xml:"xyz,attr"`
					RPY string `xml:"rpy,attr"`
				} `xml:"origin"`
				Mass struct {
					Value float64 `xml:"value,attr"`
				} `xml:"mass"`
				Inertia struct {
					Ixx float64 `xml:"ixx,attr"`
					Ixy float64 `xml:"ixy,attr"`
					Ixz float64 `xml:"ixz,attr"`
					Iyy float64 `xml:"iyy,attr"`
					Iyz float64 `xml:"iyz,attr"`
					Izz float64 `xml:"izz,attr"`
				} `xml:"inertia"`
			} `xml:"inertial"`
		} `xml:"link"`
	}
	for _, f := range []string{iiwaURDF, handURDF} {
		b, im := load(t, f, model.Options{})
		data, _ := os.ReadFile(modelPath(t, f))
		var u urdf
		if err := xml.Unmarshal(data, &u); err != nil {
			t.Fatal(err)
		}
		var want []fileInertia
		for _, l := range u.Links {
			if l.Inertial == nil {
				continue
			}
			in := l.Inertial
			rpy := nums(t, in.Origin.RPY, 3)
			R := rpyMat(rpy[0], rpy[1], rpy[2])
			i := in.Inertia
			I := spatial.Mat3{{i.Ixx, i.Ixy, i.Ixz}, {i.Ixy, i.Iyy, i.Iyz}, {i.Ixz, i.Iyz, i.Izz}}
			want = append(want, fileInertia{l.Name, in.Mass.Value, spatial.Vec3(nums(t, in.Origin.XYZ, 3)), R.Mul(I).Mul(R.T())})
		}
		checkInertias(t, want, b, im)
	}
}

// TestInertialsMatchSDF does the same for the SDFormat files.
func TestInertialsMatchSDF(t *testing.T) {
	type sdf struct {
		Model struct {
			Links []struct {
				Name     string `xml:"name,attr"`
				Inertial *struct {
					Pose    string  `xml:"pose"`
					Mass    float64 `xml:"mass"`
					Inertia struct {
						Ixx float64 `xml:"ixx"`
						Ixy float64 `xml:"ixy"`
						Ixz float64 `xml:"ixz"`
						Iyy float64 `xml:"iyy"`
						Iyz float64 `xml:"iyz"`
						Izz float64 `xml:"izz"`
					} `xml:"inertia"`
				} `xml:"inertial"`
			} `xml:"link"`
		} `xml:"model"`
	}
	for _, f := range []string{iiwaSDF, handSDF} {
		b, im := load(t, f, model.Options{})
		data, _ := os.ReadFile(modelPath(t, f))
		var s sdf
		if err := xml.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		var want []fileInertia
		for _, l := range s.Model.Links {
			if l.Inertial == nil {
				continue
			}
			in := l.Inertial
			p := nums(t, strings.TrimSpace(in.Pose), 6)
			R := rpyMat(p[3], p[4], p[5])
			i := in.Inertia
			I := spatial.Mat3{{i.Ixx, i.Ixy, i.Ixz}, {i.Ixy, i.Iyy, i.Iyz}, {i.Ixz, i.Iyz, i.Izz}}
			want = append(want, fileInertia{l.Name, in.Mass, spatial.Vec3{p[0], p[1], p[2]}, R.Mul(I).Mul(R.T())})
		}
		checkInertias(t, want, b, im)
	}
}

// TestInertialsMatchMJCF does the same for the Menagerie iiwa's
// <inertial pos quat diaginertia> (the quaternion is normalised: MuJoCo
// accepts "0 0 1 1").
func TestInertialsMatchMJCF(t *testing.T) {
	type body struct {
		Name     string `xml:"name,attr"`
		Inertial *struct {
			Pos  string  `xml:"pos,attr"`
			Quat string  `xml:"quat,attr"`
			Mass float64 `xml:"mass,attr"`
			Diag string  `xml:"diaginertia,attr"`
		} `xml:"inertial"`
		Bodies []body `xml:"body"`
	}
	var doc struct {
		World struct {
			Bodies []body `xml:"body"`
		} `xml:"worldbody"`
	}
	b, im := load(t, iiwaMJCF, model.Options{})
	data, _ := os.ReadFile(modelPath(t, iiwaMJCF))
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var want []fileInertia
	var walk func(bs []body)
	walk = func(bs []body) {
		for _, x := range bs {
			if in := x.Inertial; in != nil {
				R := spatial.Identity3()
				if in.Quat != "" {
					q := nums(t, in.Quat, 4)
					R = spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}.Normalize().RotMat()
				}
				I := spatial.Diag3(spatial.Vec3(nums(t, in.Diag, 3)))
				want = append(want, fileInertia{x.Name, in.Mass, spatial.Vec3(nums(t, in.Pos, 3)), R.Mul(I).Mul(R.T())})
			}
			walk(x.Bodies)
		}
	}
	walk(doc.World.Bodies)
	checkInertias(t, want, b, im)
}

// TestIncludeArmAndHand runs the include example of docs/MODELS.md: the
// Menagerie iiwa with Drake's Allegro hand welded to its last link. The
// hand joins the arm's tree (one tree of 7 + 16 dofs) and its root sits
// 5 cm out along link 7's z axis.
func TestIncludeArmAndHand(t *testing.T) {
	arm, hand := modelPath(t, iiwaMJCF), modelPath(t, handURDF)
	doc := "name: arm and hand\ndt: 0.001\nduration: 0.01\nmaterials:\n  default: {stiffness: 1e6, dissipation: 0.01, friction: 0.5}\n" +
		"bodies:\n  - {name: ground, fixed: true, shape: {type: halfspace}, material: default}\n" +
		"include:\n  - {file: " + arm + ", prefix: arm_, pose: {position: [0, 0, 0.4]}}\n" +
		"  - {file: " + hand + ", prefix: hand_, parent: arm_link7, pose: {position: [0, 0, 0.05]}}\n"
	path := filepath.Join(t.TempDir(), "arm.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	s, im, err := Scene(path, nil, Options{})
	if err != nil || im != nil {
		t.Fatalf("%v (import %v)", err, im)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	if m.NV != 23 || len(m.Trees) != 1 {
		t.Fatalf("nv %d trees %d, want 23 and 1", m.NV, len(m.Trees))
	}
	x7 := m.BodyPose(b.State, m.BodyByName("arm_link7"))
	xh := m.BodyPose(b.State, m.BodyByName("hand_hand_root"))
	if d := x7.Inverse().Compose(xh).P.Sub(spatial.Vec3{0, 0, 0.05}).Norm(); d > 1e-12 {
		t.Errorf("hand root %v from link 7, want (0, 0, 0.05)", x7.Inverse().Compose(xh).P)
	}
	if x0 := m.BodyPose(b.State, m.BodyByName("arm_base")); x0.P != (spatial.Vec3{0, 0, 0.4}) {
		t.Errorf("arm base at %v", x0.P)
	}
}
