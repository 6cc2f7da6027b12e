package mjref

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// PeerKey is the name of the keyframe that PeerMJCF writes: the scene's
// initial velocities (MJCF bodies have no initial velocity of their own).
// Time and Exec start from it with Options.Key = PeerKey.
const PeerKey = "init"

// peerContacts is the contact buffer that PeerMJCF sizes per free body.
const peerContacts = 12

// PeerMJCF writes the MJCF of a peer scene of issue 23 (package
// internal/peers): the same bodies, shapes, masses, friction, initial poses
// and velocities, gravity and δt, run by MuJoCo's Newton solver with the
// elliptic friction cone and its default contact softness (solref 0.02 1,
// solimp 0.9 0.95 0.001), as the peers' figures were measured.
//
// A fixed body becomes a geom of the world body; any other a body with a
// free joint and one geom carrying the body's mass (MuJoCo then takes the
// inertia of the uniform solid, as Stiction does from mass and shape). A
// half-space is MuJoCo's plane. Friction is the material's μ (condim 3:
// MuJoCo's torsional and rolling coefficients do not act). The keyframe
// PeerKey holds the initial velocities in MuJoCo's free-joint layout
// (linear in the world, angular in the body frame). Only what the peer
// scenes use is supported: boxes, spheres and half-spaces with a mass, at
// their body origin; anything else is an error naming the body and field.
// Stiction's stiffness and dissipation have no MuJoCo counterpart and are
// not carried over.
func PeerMJCF(sc *scene.Scene) ([]byte, error) {
	if sc == nil {
		return nil, fmt.Errorf("mjref: PeerMJCF: nil scene")
	}
	if !(sc.DT > 0) {
		return nil, fmt.Errorf("mjref: scene %s: dt = %g, want > 0", sc.Name, sc.DT)
	}
	g := scene.Vec{0, 0, -9.81}
	if sc.Gravity != nil {
		g = *sc.Gravity
	}
	var w bytes.Buffer
	fmt.Fprintf(&w, "<mujoco model=%q>\n", sc.Name)
	fmt.Fprintf(&w, "  <option timestep=\"%s\" gravity=\"%s\" solver=\"Newton\" cone=\"elliptic\"/>\n", peerNum(sc.DT), peerList(g[:]))
	free := 0
	for i := range sc.Bodies {
		if !sc.Bodies[i].Fixed {
			free++
		}
	}
	// MuJoCo 2.2.2 preallocates its contacts and constraint rows (nconmax
	// 100 by default, too few for the 100-sphere stack: it then drops
	// contacts with a warning). peerContacts per free body is more than
	// any peer scene uses (TestPeerMJCFDynamics), 3 rows each (condim 3).
	ncon := max(100, peerContacts*free)
	fmt.Fprintf(&w, "  <size nconmax=\"%d\" njmax=\"%d\"/>\n", ncon, 3*ncon)
	fmt.Fprintf(&w, "  <worldbody>\n")
	var qvel []float64
	for i := range sc.Bodies {
		b := &sc.Bodies[i]
		v, err := peerBody(&w, sc, b)
		if err != nil {
			return nil, fmt.Errorf("mjref: scene %s: bodies[%d] (%s): %w", sc.Name, i, b.Name, err)
		}
		qvel = append(qvel, v...)
	}
	fmt.Fprintf(&w, "  </worldbody>\n")
	if len(qvel) > 0 {
		fmt.Fprintf(&w, "  <keyframe>\n    <key name=%q qvel=\"%s\"/>\n  </keyframe>\n", PeerKey, peerList(qvel))
	}
	fmt.Fprintf(&w, "</mujoco>\n")
	return w.Bytes(), nil
}

// peerBody writes body b of sc and returns its free joint's initial
// velocities in MuJoCo's layout (none for a fixed body).
func peerBody(w *bytes.Buffer, sc *scene.Scene, b *scene.Body) ([]float64, error) {
	switch {
	case b.Shape == nil:
		return nil, fmt.Errorf("shape: missing")
	case b.Joint != nil || b.ShapePose != nil || b.COM != nil || len(b.Collisions) > 0 || b.Inertia != nil || b.Density != nil:
		return nil, fmt.Errorf("only a free or fixed body with one shape at its origin and a mass is supported")
	}
	mat, ok := sc.Materials[b.Material]
	if !ok || mat.Friction == nil {
		return nil, fmt.Errorf("material: %q has no friction", b.Material)
	}
	geom, err := peerGeom(b.Shape, *mat.Friction)
	if err != nil {
		return nil, err
	}
	p, q := b.Pose.Pos(), b.Pose.Quat()
	if b.Fixed {
		if b.Velocity != nil {
			return nil, fmt.Errorf("velocity: a fixed body has none")
		}
		fmt.Fprintf(w, "    <geom name=%q pos=\"%s\" quat=\"%s\" %s/>\n", b.Name, peerList(p[:]), peerList(q[:]), geom)
		return nil, nil
	}
	if b.Mass == nil || !(*b.Mass > 0) {
		return nil, fmt.Errorf("mass: want > 0")
	}
	if b.Shape.Type == "halfspace" {
		return nil, fmt.Errorf("shape: a half-space must be fixed")
	}
	fmt.Fprintf(w, "    <body name=%q pos=\"%s\" quat=\"%s\">\n      <freejoint/>\n", b.Name, peerList(p[:]), peerList(q[:]))
	fmt.Fprintf(w, "      <geom name=%q mass=\"%s\" %s/>\n    </body>\n", b.Name, peerNum(*b.Mass), geom)
	// MuJoCo's free joint: linear velocity of the body origin in the world
	// (here the centre of mass), angular velocity in the body frame.
	var lin, ang spatial.Vec3
	if b.Velocity != nil && b.Velocity.Linear != nil {
		lin = spatial.Vec3(*b.Velocity.Linear)
	}
	if b.Velocity != nil && b.Velocity.Angular != nil {
		ang = spatial.Vec3(*b.Velocity.Angular)
	}
	wb := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}.Conj().Rotate(ang)
	return []float64{lin[0], lin[1], lin[2], wb[0], wb[1], wb[2]}, nil
}

// peerGeom returns the attributes of the MJCF geom of shape s with sliding
// friction mu (MuJoCo's default torsional and rolling coefficients).
func peerGeom(s *scene.Shape, mu float64) (string, error) {
	fr := fmt.Sprintf("friction=\"%s 0.005 0.0001\"", peerNum(mu))
	switch s.Type {
	case "halfspace":
		return "type=\"plane\" size=\"0 0 1\" " + fr, nil
	case "box":
		if s.Size == nil {
			return "", fmt.Errorf("shape.size: missing")
		}
		h := [3]float64{s.Size[0] / 2, s.Size[1] / 2, s.Size[2] / 2}
		return fmt.Sprintf("type=\"box\" size=\"%s\" %s", peerList(h[:]), fr), nil
	case "sphere":
		if s.Radius == nil {
			return "", fmt.Errorf("shape.radius: missing")
		}
		return fmt.Sprintf("type=\"sphere\" size=\"%s\" %s", peerNum(*s.Radius), fr), nil
	}
	return "", fmt.Errorf("shape.type: %q not supported (box, sphere, halfspace)", s.Type)
}

// peerNum formats x in the shortest form that reads back exactly.
func peerNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// peerList formats x as an MJCF list of numbers.
func peerList(x []float64) string {
	var b bytes.Buffer
	for i, v := range x {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(peerNum(v))
	}
	return b.String()
}
