package scene

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

func TestNames(t *testing.T) {
	want := []string{"arm", "chain", "clutter", "clutter-nowalls", "double-pendulum", "drop", "grasp", "incline", "pendulum", "spring-cylinder", "spring-cylinder-frictionless", "stack"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	for _, bad := range []string{"", "scenes/drop", "../drop", ".", "drop.yaml", "nope"} {
		if _, ok := Embedded(bad); ok {
			t.Errorf("Embedded(%q) found a scene", bad)
		}
	}
}

// includesModels reports whether an embedded scene includes robot models:
// only model/load can load it (model/grasp tests the grasp scene).
func includesModels(data []byte) bool { return bytes.Contains(data, []byte("\ninclude:")) }

func TestEmbeddedScenesValidate(t *testing.T) {
	for _, name := range Names() {
		data, ok := Embedded(name)
		if !ok {
			t.Fatalf("Embedded(%q) missing", name)
		}
		if includesModels(data) {
			continue
		}
		s, err := Parse(name+".yaml", data, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Name != name {
			t.Errorf("%s: name field is %q", name, s.Name)
		}
		if err := s.Validate(name + ".yaml"); err != nil {
			t.Errorf("%s: Validate after Parse: %v", name, err)
		}
	}
}

// TestClutterUpToDate checks that the embedded clutter scenes are exactly
// what the generator writes, so they cannot drift from Clutter.
func TestClutterUpToDate(t *testing.T) {
	for _, walls := range []bool{true, false} {
		s := Clutter(10, walls)
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := Embedded(s.Name)
		if !ok {
			t.Fatalf("no embedded scene %q", s.Name)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("scenes/%s.yaml differs from Marshal(Clutter(10, %t)); run go generate ./scene", s.Name, walls)
		}
	}
}

func TestDrop(t *testing.T) {
	s := loadEmbedded(t, "drop")
	g, b := body(t, s, "ground"), body(t, s, "ball")
	if !g.Fixed || g.Shape.Type != "halfspace" || g.Pose.Quat() != [4]float64{1, 0, 0, 0} || g.Pose.Pos() != [3]float64{} {
		t.Errorf("ground %+v", g)
	}
	if b.Shape.Type != "sphere" || *b.Shape.Radius != 0.05 || *b.Density != 1000 || b.Pose.Pos() != [3]float64{0, 0, 0.05} || b.Velocity != nil {
		t.Errorf("ball %+v", b)
	}
	m := s.Materials["default"]
	if s.DT != 0.001 || s.Duration != 1 || *m.Stiffness != 1e12 || *m.Dissipation != 0 || *m.Friction != 1 || len(s.Materials) != 1 {
		t.Errorf("drop parameters %+v %+v", s, m)
	}
}

func TestIncline(t *testing.T) {
	s := loadEmbedded(t, "incline")
	plane, box := body(t, s, "incline"), body(t, s, "box")
	qp := plane.Pose.Quat()
	n := rotate(qp, [3]float64{0, 0, 1})
	th := 15 * math.Pi / 180
	if math.Abs(n[0]-math.Sin(th)) > 1e-15 || n[1] != 0 || math.Abs(n[2]-math.Cos(th)) > 1e-15 {
		t.Errorf("incline normal %v", n)
	}
	if !plane.Fixed || plane.Pose.Pos() != [3]float64{} {
		t.Errorf("incline %+v", plane)
	}
	if box.Pose.Quat() != qp {
		t.Errorf("box orientation %v, plane %v", box.Pose.Quat(), qp)
	}
	p := box.Pose.Pos()
	if d := p[0]*n[0] + p[1]*n[1] + p[2]*n[2]; math.Abs(d-0.025) > 1e-15 {
		t.Errorf("box centre at distance %v from the plane, want 0.025", d)
	}
	// The centre lies on the normal through the plane origin.
	if tx := p[0]*math.Cos(th) - p[2]*math.Sin(th); math.Abs(tx) > 1e-15 || p[1] != 0 {
		t.Errorf("box centre %v not on the normal", p)
	}
	// The long side runs down the slope.
	if x := rotate(box.Pose.Quat(), [3]float64{1, 0, 0}); math.Abs(x[0]-math.Cos(th)) > 1e-15 || math.Abs(x[2]+math.Sin(th)) > 1e-15 {
		t.Errorf("box x axis %v", x)
	}
	m := s.Materials["default"]
	if *box.Shape.Size != (Vec{0.2, 0.1, 0.05}) || *box.Mass != 1 || box.Inertia != nil || box.Density != nil || box.Velocity != nil {
		t.Errorf("box %+v", box)
	}
	if s.DT != 0.01 || s.Duration != 1 || *m.Stiffness != 1e12 || *m.Dissipation != 0.01 || *m.Friction != 0.25 || len(s.Materials) != 1 {
		t.Errorf("incline parameters")
	}
	if plane.Material != "default" || box.Material != "default" {
		t.Errorf("both bodies must use material default")
	}
}

func TestStack(t *testing.T) {
	s := loadEmbedded(t, "stack")
	if len(s.Bodies) != 11 || s.DT != 0.005 || s.Duration != 5 {
		t.Fatalf("stack: %d bodies, dt %v, duration %v", len(s.Bodies), s.DT, s.Duration)
	}
	m := s.Materials["default"]
	if *m.Stiffness != 1e11 || *m.Dissipation != 0.01 || *m.Friction != 1 {
		t.Errorf("material %+v", m)
	}
	for i, b := range s.Bodies[1:] {
		want := [3]float64{0, 0, 0.05 + 0.1*float64(i)}
		p := b.Pose.Pos()
		if b.Shape.Type != "sphere" || *b.Shape.Radius != 0.05 || *b.Density != 1000 ||
			p[0] != 0 || p[1] != 0 || math.Abs(p[2]-want[2]) > 1e-15 {
			t.Errorf("sphere %d: %+v at %v", i, b, p)
		}
	}
}

// corners returns the lowest and highest z of an object's shape and its
// largest horizontal distance from the column axis.
func extent(b *Body) (lo, hi float64, p [3]float64) {
	p = b.Pose.Pos()
	if b.Shape.Type == "sphere" {
		r := *b.Shape.Radius
		return p[2] - r, p[2] + r, p
	}
	q := b.Pose.Quat()
	lo, hi = math.Inf(1), math.Inf(-1)
	h := *b.Shape.Size
	for _, sx := range []float64{-1, 1} {
		for _, sy := range []float64{-1, 1} {
			for _, sz := range []float64{-1, 1} {
				c := rotate(q, [3]float64{sx * h[0] / 2, sy * h[1] / 2, sz * h[2] / 2})
				lo, hi = min(lo, p[2]+c[2]), max(hi, p[2]+c[2])
			}
		}
	}
	return lo, hi, p
}

func TestClutter(t *testing.T) {
	for _, walls := range []bool{true, false} {
		s := Clutter(10, walls)
		if err := s.Validate("clutter"); err != nil {
			t.Fatal(err)
		}
		nFixed := 1
		if walls {
			nFixed = 5
		}
		if len(s.Bodies) != nFixed+40 {
			t.Fatalf("walls=%t: %d bodies", walls, len(s.Bodies))
		}
		m := s.Materials["default"]
		if s.DT != 0.01 || s.Duration != 10 || *m.Stiffness != 1e12 || *m.Dissipation != 0.01 || *m.Friction != 1 {
			t.Errorf("parameters")
		}
		for _, b := range s.Bodies[:nFixed] {
			if !b.Fixed || b.Shape.Type != "halfspace" {
				t.Errorf("fixed body %+v", b)
			}
			// Walls face inward: the plane passes through its position and
			// the normal points to the centre.
			n := rotate(b.Pose.Quat(), [3]float64{0, 0, 1})
			p := b.Pose.Pos()
			if d := -(p[0]*n[0] + p[1]*n[1] + p[2]*n[2]); math.Abs(d-map[bool]float64{true: 0.4, false: 0}[b.Name != "ground"]) > 1e-15 {
				t.Errorf("%s: centre at distance %v from the plane", b.Name, d)
			}
			if b.Name != "ground" && (math.Abs(math.Hypot(n[0], n[1])-1) > 1e-15 || math.Abs(n[2]) > 1e-15) {
				t.Errorf("%s: normal %v not horizontal", b.Name, n)
			}
		}
		objects := s.Bodies[nFixed:]
		for c := range 4 {
			col := objects[10*c : 10*c+10]
			prevHi := 0.0
			for k := range col {
				b := &col[k]
				wantSphere := (k+c)%2 == 0
				if (b.Shape.Type == "sphere") != wantSphere || *b.Density != 1000 {
					t.Errorf("column %d level %d: %+v", c, k, b)
				}
				if b.Shape.Type == "box" && *b.Shape.Size != (Vec{0.1, 0.1, 0.1}) {
					t.Errorf("box size %v", *b.Shape.Size)
				}
				lo, hi, p := extent(b)
				if lo <= prevHi+0.01 {
					t.Errorf("column %d level %d: bottom %v not clear of the one below (%v)", c, k, lo, prevHi)
				}
				prevHi = hi
				off := math.Hypot(p[0]-math.Copysign(0.2, p[0]), p[1]-math.Copysign(0.2, p[1]))
				if off < 0.0019 || off > 0.0041 {
					t.Errorf("column %d level %d: horizontal offset %v", c, k, off)
				}
				if a := b.Pose.AxisAngle; a == nil || a.AngleDeg < 2 || a.AngleDeg > 5 || a.Axis[2] != 0 {
					t.Errorf("column %d level %d: tilt %+v", c, k, a)
				}
				if math.Abs(p[0])+0.09 > 0.4 || math.Abs(p[1])+0.09 > 0.4 {
					t.Errorf("column %d level %d: at %v, too close to a wall", c, k, p)
				}
			}
			if lo, _, _ := extent(&col[0]); math.Abs(lo-0.05) > 0.006 {
				t.Errorf("column %d starts at %v, want about 0.05", c, lo)
			}
		}
	}
	if n := len(Clutter(25, false).Bodies); n != 101 {
		t.Errorf("Clutter(25) has %d bodies", n)
	}
}
