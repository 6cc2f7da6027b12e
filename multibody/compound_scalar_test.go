package multibody

import (
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// compoundFramesVec is compoundFrames in the Pose and Vec3 form it had.
func (j *Joint) compoundFramesVec(q []float64, rot *[MaxCompoundDOF]spatial.Quat, anchor, origin *[MaxCompoundDOF]spatial.Vec3) spatial.Pose {
	x := spatial.PoseIdentity()
	qi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		rot[k], origin[k] = x.R, x.P
		anchor[k] = x.Apply(p.Pos)
		switch p.Type {
		case JointRevolute:
			x.R = x.R.Mul(spatial.QuatFromAxisAngle(p.Axis, q[qi]-p.Ref))
			x.P = anchor[k].Sub(x.R.Rotate(p.Pos))
		case JointPrismatic:
			x.P = x.P.Add(x.R.Rotate(p.Axis.Scale(q[qi] - p.Ref)))
		case JointBall:
			x.R = x.R.Mul(jointQuat(q[qi:]))
			x.P = anchor[k].Sub(x.R.Rotate(p.Pos))
		}
		qi += p.Type.NQ()
	}
	return x
}

// compoundSubspaceVec is compoundSubspaceAt in the Vec3 form it had.
func (j *Joint) compoundSubspaceVec(f *compoundWalk, v []float64, w, l *[6]spatial.Vec3) (cw, cl spatial.Vec3) {
	rot, anchor, origin, xm := &f.rot, &f.anchor, &f.origin, f.xm
	e := [3]spatial.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	vi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		switch p.Type {
		case JointRevolute:
			w[vi] = rot[k].Rotate(p.Axis)
			l[vi] = w[vi].Cross(xm.P.Sub(anchor[k]))
		case JointPrismatic:
			w[vi], l[vi] = spatial.Vec3{}, rot[k].Rotate(p.Axis)
		case JointBall:
			for i := range 3 {
				w[vi+i] = rot[k].Rotate(e[i])
				l[vi+i] = w[vi+i].Cross(xm.P.Sub(anchor[k]))
			}
		}
		vi += p.Type.NV()
	}
	if v == nil {
		return cw, cl
	}
	// Forward pass: Ω and the origin velocity u of each part's frame.
	var wdot [MaxCompoundDOF]spatial.Vec3
	var cdot [MaxCompoundDOF]spatial.Vec3
	var omega, u spatial.Vec3
	vi = 0
	for k := range j.Parts {
		p := &j.Parts[k]
		n := p.Type.NV()
		var next spatial.Vec3 // origin of the frame after part k
		if k+1 < len(j.Parts) {
			next = origin[k+1]
		} else {
			next = xm.P
		}
		if p.Type == JointPrismatic {
			wdot[vi] = omega.Cross(l[vi]) // l̇ for a translation, stored in wdot's slot
			u = u.Add(omega.Cross(next.Sub(origin[k]))).AddScaled(v[vi], l[vi])
			vi += n
			continue
		}
		cdot[k] = u.Add(omega.Cross(anchor[k].Sub(origin[k])))
		var wk spatial.Vec3
		for i := range n {
			wdot[vi+i] = omega.Cross(w[vi+i])
			wk = wk.AddScaled(v[vi+i], w[vi+i])
		}
		omega = omega.Add(wk)
		u = cdot[k].Add(omega.Cross(next.Sub(anchor[k])))
		vi += n
	}
	// u is now ȯ_M.
	vi = 0
	for k := range j.Parts {
		p := &j.Parts[k]
		n := p.Type.NV()
		for i := range n {
			c := vi + i
			if p.Type == JointPrismatic {
				cl = cl.AddScaled(v[c], wdot[c])
				continue
			}
			ld := wdot[c].Cross(xm.P.Sub(anchor[k])).Add(w[c].Cross(u.Sub(cdot[k])))
			cw = cw.AddScaled(v[c], wdot[c])
			cl = cl.AddScaled(v[c], ld)
		}
		vi += n
	}
	return cw, cl
}

// TestCompoundMatchesVectorForm: compoundFrames and compoundSubspaceAt, on
// vec3s, give the bits of their Vec3 form for every compound joint of
// random forests (random parts of every type, random coordinates and
// velocities), with and without velocities.
func TestCompoundMatchesVectorForm(t *testing.T) {
	bits := sameVecBits
	r := rand.New(rand.NewPCG(41, 42))
	n := 0
	for range 20 {
		m, s := randomForest(r, JointCompound)
		for b := range m.Bodies {
			j := &m.Bodies[b].Joint
			if j.Type != JointCompound {
				continue
			}
			q, v := s.Q[m.Bodies[b].QOff:], s.V[m.Bodies[b].VOff:]
			var got, want compoundWalk
			got.xm = j.compoundFrames(q, &got.rot, &got.anchor, &got.origin)
			want.xm = j.compoundFramesVec(q, &want.rot, &want.anchor, &want.origin)
			if got != want {
				t.Fatalf("body %d: frames %+v, Vec3 form %+v", b, got, want)
			}
			for _, vel := range [][]float64{v, nil} {
				var gw, gl, ww, wl [6]spatial.Vec3
				gsw, gsl := j.compoundSubspaceAt(&got, vel, &gw, &gl)
				gcw, gcl := gsw.array(), gsl.array()
				wcw, wcl := j.compoundSubspaceVec(&want, vel, &ww, &wl)
				same := bits(gcw, wcw) && bits(gcl, wcl)
				for k := range j.NV() {
					same = same && bits(gw[k], ww[k]) && bits(gl[k], wl[k])
				}
				if !same {
					t.Fatalf("body %d (velocities %v): S (%v, %v) Ṡv (%v, %v); Vec3 form (%v, %v), (%v, %v)", b, vel != nil, gw, gl, gcw, gcl, ww, wl, wcw, wcl)
				}
				n++
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d compound joints checked", n)
	}
}
