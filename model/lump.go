package model

import (
	"errors"
	"fmt"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// LumpFloatingRoot gives a massless free root body the mass of the bodies
// welded to it (directly or through other welds): a floating robot whose
// root link is an empty frame (URDF's "base" or "hand_root") would
// otherwise have a massless free body. Their mass properties, composed in
// the root's frame (parallel-axis theorem, mechanics notes §0.1), move to
// the root, and they become massless frames. bodies[0] must be the root
// and parents must precede children. It returns an error if the welded
// group has no mass at all.
func LumpFloatingRoot(s *scene.Scene) error {
	root := &s.Bodies[0]
	if root.Mass != nil || root.Density != nil {
		return nil
	}
	// X[i]: pose of body i in the root frame, for bodies welded to it.
	X := map[string]spatial.Pose{root.Name: spatial.PoseIdentity()}
	var m float64
	var first spatial.Vec3
	type part struct {
		m float64
		c spatial.Vec3
		I spatial.Mat3
	}
	var parts []part
	for i := 1; i < len(s.Bodies); i++ {
		b := &s.Bodies[i]
		j := b.Joint
		if j == nil || j.Type != "weld" {
			continue
		}
		xp, ok := X[j.Parent]
		if !ok {
			continue
		}
		x := xp.Compose(pose(j.ParentFrame)).Compose(pose(j.ChildFrame).Inverse())
		X[b.Name] = x
		if b.Mass == nil || b.Inertia == nil {
			continue
		}
		if b.Density != nil {
			return fmt.Errorf("body %s: lumping needs explicit mass and inertia", b.Name)
		}
		c := spatial.Vec3{}
		if b.COM != nil {
			c = spatial.Vec3(*b.COM)
		}
		R := x.R.RotMat()
		parts = append(parts, part{*b.Mass, x.Apply(c), spatial.RotateInertia(R, inertiaOf(b.Inertia))})
		m += *b.Mass
		first = first.AddScaled(*b.Mass, x.Apply(c))
		b.Mass, b.Inertia, b.COM = nil, nil, nil
	}
	if !(m > 0) {
		return errors.New("the floating root and the bodies welded to it have no mass")
	}
	com := first.Scale(1 / m)
	var I spatial.Mat3
	for _, p := range parts {
		d := p.c.Sub(com)
		I = I.Add(p.I).Add(spatial.Identity3().Scale(p.m * d.Dot(d)).Sub(spatial.Outer(d, d).Scale(p.m)))
	}
	cv := scene.Vec(com)
	root.Mass, root.COM, root.Inertia = &m, &cv, MatrixInertia(I)
	return nil
}

func pose(p *scene.Pose) spatial.Pose {
	if p == nil {
		return spatial.PoseIdentity()
	}
	return ScenePose(*p)
}

// ScenePose converts a scene pose to a spatial pose.
func ScenePose(p scene.Pose) spatial.Pose {
	q := p.Quat()
	return spatial.Pose{R: spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}, P: spatial.Vec3(p.Pos())}
}

// PoseToScene converts a spatial pose to a scene pose (position and
// quaternion; nil fields for the identity parts).
func PoseToScene(x spatial.Pose) *scene.Pose {
	var p scene.Pose
	if x.P != (spatial.Vec3{}) {
		v := scene.Vec(x.P)
		p.Position = &v
	}
	if x.R != spatial.QuatIdentity() {
		q := [4]float64{x.R.W, x.R.X, x.R.Y, x.R.Z}
		p.Quaternion = &q
	}
	return &p
}

func inertiaOf(in *scene.Inertia) spatial.Mat3 {
	if in.Diagonal != nil {
		return spatial.Diag3(spatial.Vec3(*in.Diagonal))
	}
	var I spatial.Mat3
	for i, r := range in.Matrix {
		I[i] = r
	}
	return I
}

// MatrixInertia converts a rotational inertia to the scene form: diagonal
// when it is, else the full matrix (symmetrised exactly).
func MatrixInertia(I spatial.Mat3) *scene.Inertia {
	if I[0][1] == 0 && I[0][2] == 0 && I[1][2] == 0 && I[1][0] == 0 && I[2][0] == 0 && I[2][1] == 0 {
		d := scene.Vec{I[0][0], I[1][1], I[2][2]}
		return &scene.Inertia{Diagonal: &d}
	}
	var m [3]scene.Vec
	for i := range 3 {
		for j := range 3 {
			m[i][j] = (I[i][j] + I[j][i]) / 2
		}
	}
	return &scene.Inertia{Matrix: &m}
}
