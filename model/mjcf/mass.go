package mjcf

import (
	"math"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/spatial"
)

// setTotalMass applies <compiler settotalmass>: as MuJoCo 2.2.2, every
// body's mass and inertia (static bodies' too, the world's own geoms
// excepted) is scaled by one factor so that their total mass is the
// given one; boundmass and boundinertia were applied before.
func (c *compiler) setTotalMass() error {
	if c.totalMass <= 0 {
		return nil
	}
	sum := 0.0
	for _, l := range c.out.Links { // the world's own geoms carry no mass
		sum += l.Mass
	}
	if sum <= 0 {
		return c.r.Errorf(c.totalMassElem, "settotalmass", "the model has no mass to scale")
	}
	f := c.totalMass / sum
	s := c.out.Scene
	for i := range c.out.Links {
		l := &c.out.Links[i]
		if l.Mass == 0 {
			continue
		}
		l.Mass *= f
		l.Inertia = l.Inertia.Scale(f)
		c.bodyMass[i] = l.Mass
		if b := &s.Bodies[i]; b.Mass != nil {
			m := l.Mass
			b.Mass = &m
			b.Inertia = model.MatrixInertia(l.Inertia)
		}
	}
	return nil
}

// boundPrincipal raises the principal moments of inertia I below lo to lo
// (compiler boundinertia: MuJoCo bounds the principal moments of every
// body, massless ones too), keeping the principal axes.
func boundPrincipal(I spatial.Mat3, lo float64) spatial.Mat3 {
	ev, V := spatial.EigSym3(I)
	if ev[0] >= lo {
		return I
	}
	var out spatial.Mat3
	for k := range 3 {
		d := math.Max(ev[k], lo) - ev[k] // add (d) along the k-th principal axis
		for i := range 3 {
			for j := range 3 {
				out[i][j] += d * V[i][k] * V[j][k]
			}
		}
	}
	return I.Add(out)
}
