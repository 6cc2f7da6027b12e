package scene

import (
	"math"
	"testing"
)

func near4(a, b [4]float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

func TestPoseQuat(t *testing.T) {
	h := math.Sqrt(0.5)
	c15, s15 := math.Cos(7.5*math.Pi/180), math.Sin(7.5*math.Pi/180)
	cases := []struct {
		name string
		pose Pose
		want [4]float64
	}{
		{"none", Pose{}, [4]float64{1, 0, 0, 0}},
		{"quaternion scaled", Pose{Quaternion: &[4]float64{2, 0, 0, 0}}, [4]float64{1, 0, 0, 0}},
		{"quaternion 1111", Pose{Quaternion: &[4]float64{1, 1, 1, 1}}, [4]float64{0.5, 0.5, 0.5, 0.5}},
		{"quaternion 3 4", Pose{Quaternion: &[4]float64{0, 3, 0, -4}}, [4]float64{0, 0.6, 0, -0.8}},
		{"axis_angle z 90", Pose{AxisAngle: &AxisAngle{Axis: Vec{0, 0, 2}, AngleDeg: 90}}, [4]float64{h, 0, 0, h}},
		{"axis_angle xy 180", Pose{AxisAngle: &AxisAngle{Axis: Vec{1, 1, 0}, AngleDeg: 180}}, [4]float64{0, h, h, 0}},
		{"axis_angle y 15", Pose{AxisAngle: &AxisAngle{Axis: Vec{0, 1, 0}, AngleDeg: 15}}, [4]float64{c15, 0, s15, 0}},
		{"axis_angle x -90", Pose{AxisAngle: &AxisAngle{Axis: Vec{-1, 0, 0}, AngleDeg: 90}}, [4]float64{h, -h, 0, 0}},
		{"rpy roll 90", Pose{RPYDeg: &Vec{90, 0, 0}}, [4]float64{h, h, 0, 0}},
		{"rpy pitch 90", Pose{RPYDeg: &Vec{0, 90, 0}}, [4]float64{h, 0, h, 0}},
		{"rpy yaw 90", Pose{RPYDeg: &Vec{0, 0, 90}}, [4]float64{h, 0, 0, h}},
		// Ry(90)·Rx(90): qy·qx = (h,0,h,0)(h,h,0,0) = (½, ½, ½, −½).
		{"rpy roll 90 pitch 90", Pose{RPYDeg: &Vec{90, 90, 0}}, [4]float64{0.5, 0.5, 0.5, -0.5}},
		// Rz(90)·Rx(90): qz·qx = (h,0,0,h)(h,h,0,0) = (½, ½, ½, ½).
		{"rpy roll 90 yaw 90", Pose{RPYDeg: &Vec{90, 0, 90}}, [4]float64{0.5, 0.5, 0.5, 0.5}},
	}
	for _, tc := range cases {
		if got := tc.pose.Quat(); !near4(got, tc.want, 1e-15) {
			t.Errorf("%s: Quat() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// rotMat returns the rotation matrix of the unit quaternion q.
func rotMat(q [4]float64) [3][3]float64 {
	w, x, y, z := q[0], q[1], q[2], q[3]
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

func matMul(a, b [3][3]float64) [3][3]float64 {
	var c [3][3]float64
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func rotate(q [4]float64, v [3]float64) [3]float64 {
	r := rotMat(q)
	return [3]float64{
		r[0][0]*v[0] + r[0][1]*v[1] + r[0][2]*v[2],
		r[1][0]*v[0] + r[1][1]*v[1] + r[1][2]*v[2],
		r[2][0]*v[0] + r[2][1]*v[1] + r[2][2]*v[2],
	}
}

// TestRPYConvention checks rpy_deg against R = Rz(yaw)·Ry(pitch)·Rx(roll)
// built from elementary matrices.
func TestRPYConvention(t *testing.T) {
	roll, pitch, yaw := 30.0, -20.0, 75.0
	d := math.Pi / 180
	cr, sr := math.Cos(roll*d), math.Sin(roll*d)
	cp, sp := math.Cos(pitch*d), math.Sin(pitch*d)
	cy, sy := math.Cos(yaw*d), math.Sin(yaw*d)
	rx := [3][3]float64{{1, 0, 0}, {0, cr, -sr}, {0, sr, cr}}
	ry := [3][3]float64{{cp, 0, sp}, {0, 1, 0}, {-sp, 0, cp}}
	rz := [3][3]float64{{cy, -sy, 0}, {sy, cy, 0}, {0, 0, 1}}
	want := matMul(rz, matMul(ry, rx))
	got := rotMat(Pose{RPYDeg: &Vec{roll, pitch, yaw}}.Quat())
	for i := range 3 {
		for j := range 3 {
			if math.Abs(got[i][j]-want[i][j]) > 1e-15 {
				t.Fatalf("R = %v, want %v", got, want)
			}
		}
	}
	// A rotation about an axis fixes the axis and turns x into the right-handed direction.
	q := Pose{AxisAngle: &AxisAngle{Axis: Vec{0, 0, 1}, AngleDeg: 90}}.Quat()
	if v := rotate(q, [3]float64{1, 0, 0}); math.Abs(v[0]) > 1e-15 || math.Abs(v[1]-1) > 1e-15 {
		t.Errorf("Rz(90)·x = %v, want y", v)
	}
}

func TestPosePos(t *testing.T) {
	if p := (Pose{}).Pos(); p != [3]float64{} {
		t.Errorf("Pos() = %v", p)
	}
	if p := (Pose{Position: &Vec{1, 2, 3}}).Pos(); p != [3]float64{1, 2, 3} {
		t.Errorf("Pos() = %v", p)
	}
}
