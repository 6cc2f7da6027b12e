package multibody

import "github.com/stiction-sim/stiction/spatial"

// vec3 is a spatial.Vec3 that Go keeps in registers: a struct of three
// fields is broken into its fields, an array (spatial.Vec3) is kept in
// memory, so a chain of Vec3 operations goes through the stack. Its
// methods make spatial.Vec3's operations, component by component in the
// same order, so results have the same bits.
type vec3 struct{ x, y, z float64 }

// vecOf returns a as a vec3.
func vecOf(a *spatial.Vec3) vec3 { return vec3{a[0], a[1], a[2]} }

// array returns a as a spatial.Vec3.
func (a vec3) array() spatial.Vec3 { return spatial.Vec3{a.x, a.y, a.z} }

// store writes a into *d component by component (as set3 does).
func (a vec3) store(d *spatial.Vec3) { d[0], d[1], d[2] = a.x, a.y, a.z }

// set3 writes (a, b, c) into *d component by component: a Vec3 value
// (an array) would be built on the stack and copied.
func set3(d *spatial.Vec3, a, b, c float64) { d[0], d[1], d[2] = a, b, c }

// set sets component i of a to s.
func (a *vec3) set(i int, s float64) {
	switch i {
	case 0:
		a.x = s
	case 1:
		a.y = s
	default:
		a.z = s
	}
}

// add returns a + b (spatial.Vec3.Add).
func (a vec3) add(b vec3) vec3 { return vec3{a.x + b.x, a.y + b.y, a.z + b.z} }

// sub returns a − b (spatial.Vec3.Sub).
func (a vec3) sub(b vec3) vec3 { return vec3{a.x - b.x, a.y - b.y, a.z - b.z} }

// scale returns s·a (spatial.Vec3.Scale).
func (a vec3) scale(s float64) vec3 { return vec3{s * a.x, s * a.y, s * a.z} }

// addScaled returns a + s·b (spatial.Vec3.AddScaled).
func (a vec3) addScaled(s float64, b vec3) vec3 {
	return vec3{a.x + s*b.x, a.y + s*b.y, a.z + s*b.z}
}

// cross returns a × b (spatial.Vec3.Cross).
func (a vec3) cross(b vec3) vec3 {
	x, y, z := cross(a.x, a.y, a.z, b.x, b.y, b.z)
	return vec3{x, y, z}
}

// rotateVec returns v rotated by the unit quaternion q, with the operations
// of spatial.Quat.Rotate in its order.
func rotateVec(q *spatial.Quat, v vec3) vec3 {
	t0 := 2 * (q.Y*v.z - q.Z*v.y)
	t1 := 2 * (q.Z*v.x - q.X*v.z)
	t2 := 2 * (q.X*v.y - q.Y*v.x)
	return vec3{
		(v.x + q.W*t0) + (q.Y*t2 - q.Z*t1),
		(v.y + q.W*t1) + (q.Z*t0 - q.X*t2),
		(v.z + q.W*t2) + (q.X*t1 - q.Y*t0),
	}
}

// finite reports whether every component of a is finite (x − x is 0 for a
// finite x and NaN for ±Inf and NaN).
func (a vec3) finite() bool { return a.x-a.x == 0 && a.y-a.y == 0 && a.z-a.z == 0 }
