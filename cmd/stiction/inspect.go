package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
)

// inspectJSON is what stiction inspect prints.
type inspectJSON struct {
	Scene  string      `json:"scene"`
	NQ     int         `json:"nq"`
	NV     int         `json:"nv"`
	Mass   float64     `json:"total_mass"` // of the bodies that move
	Bodies []bodyJSON  `json:"bodies"`
	Joints []jointJSON `json:"joints"`
	Q0     []float64   `json:"q0"`
	M      [][]float64 `json:"mass_matrix"` // M(q0), NV×NV
	Bias   []float64   `json:"bias"`        // τ_g(q0) − C(q0, v0)
	Import *importJSON `json:"import,omitempty"`
}

type bodyJSON struct {
	Name    string        `json:"name"`
	Parent  string        `json:"parent"` // "world" for a root
	Fixed   bool          `json:"fixed"`  // welded to the world
	Mass    float64       `json:"mass"`
	COM     [3]float64    `json:"com"`     // body frame
	Inertia [3][3]float64 `json:"inertia"` // about the centre of mass, body frame
	Shapes  int           `json:"collision_shapes"`
	Visuals int           `json:"visuals"`
}

type jointJSON struct {
	Name  string      `json:"name"`
	Type  string      `json:"type"`
	Body  string      `json:"body"`
	QOff  int         `json:"q_offset"`
	VOff  int         `json:"v_offset"`
	Axis  *[3]float64 `json:"axis,omitempty"`
	Lower []float64   `json:"lower,omitempty"`
	Upper []float64   `json:"upper,omitempty"`
	Damp  float64     `json:"damping,omitempty"`
	Arm   float64     `json:"armature,omitempty"`
	Ref   float64     `json:"ref,omitempty"`
	// Compound names the compound joint (its body's) that this joint is a
	// part of.
	Compound string `json:"compound,omitempty"`
}

// compoundJoints lists the parts of body b's compound joint as joints, each
// with its own offsets in q and v.
func compoundJoints(m *multibody.Model, b int) []jointJSON {
	body := &m.Bodies[b]
	var out []jointJSON
	qo, vo := body.QOff, body.VOff
	for i, p := range body.Joint.Parts {
		name := p.Name
		if name == "" {
			name = fmt.Sprintf("%s/part%d", record.JointName(m, b), i)
		}
		jj := jointJSON{Name: name, Type: p.Type.String(), Body: body.Name, QOff: qo, VOff: vo, Damp: p.Damping, Arm: p.Armature, Ref: p.Ref, Compound: record.JointName(m, b)}
		if p.Type != multibody.JointBall {
			a := [3]float64(p.Axis)
			jj.Axis = &a
		}
		out = append(out, jj)
		qo, vo = qo+p.Type.NQ(), vo+p.Type.NV()
	}
	return out
}

// importJSON summarises what a model file holds that is not simulated yet.
type importJSON struct {
	Format        string `json:"format"`
	Warnings      int    `json:"warnings"`
	Actuators     int    `json:"actuators"`
	Equalities    int    `json:"equalities"`
	JointFriction int    `json:"joint_friction"`
	Sites         int    `json:"sites"`
	// FileMasses are the file's masses of every body, those welded to
	// the world included (the model drops their mass: they do not move).
	FileMasses map[string]float64 `json:"file_masses"`
}

// cmdInspect loads a model (or scene) and prints its structure and
// dynamics at q0 as JSON.
func cmdInspect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var mf modelFlags
	mf.register(fs)
	var sets multiFlag
	fs.Var(&sets, "set", "override a scene field: path=value (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "stiction inspect: want one model or scene, got %d arguments\n%s", len(pos), usage)
		return 2
	}
	mf.stderr = stderr
	sc, im, err := loadInspect(mf, pos[0], sets)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	b, err := scene.Build(sc)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	out := inspect(b.Name, b.Model, b.State, im)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	return 0
}

// loadInspect loads with the flags' options and keyframe, keeping the import.
func loadInspect(mf modelFlags, name string, sets []string) (*scene.Scene, *model.Import, error) {
	sc, im, err := loadWithImport(mf, name, sets)
	if err != nil {
		return nil, nil, err
	}
	if mf.keyframe != "" {
		if err := sc.ApplyKeyframe(mf.keyframe); err != nil {
			return nil, nil, err
		}
	}
	return sc, im, nil
}

// inspect describes model m at state s.
func inspect(name string, m *multibody.Model, s *multibody.State, im *model.Import) inspectJSON {
	out := inspectJSON{Scene: name, NQ: m.NQ, NV: m.NV, Q0: append([]float64{}, s.Q...)}
	shapes, visuals := make([]int, len(m.Bodies)), make([]int, len(m.Bodies))
	for _, g := range m.Geometries {
		shapes[g.Body]++
	}
	for _, v := range m.Visuals {
		visuals[v.Body]++
	}
	for b, body := range m.Bodies {
		parent := "world"
		if p := body.Joint.Parent; p >= 0 {
			parent = m.Bodies[p].Name
		}
		in := body.Inertia
		out.Bodies = append(out.Bodies, bodyJSON{Name: body.Name, Parent: parent, Fixed: body.Tree < 0, Mass: in.Mass, COM: in.Com, Inertia: in.Icom, Shapes: shapes[b], Visuals: visuals[b]})
		if body.Tree < 0 {
			continue
		}
		out.Mass += in.Mass
		j := body.Joint
		if j.Type == multibody.JointCompound {
			out.Joints = append(out.Joints, compoundJoints(m, b)...)
			continue
		}
		if j.NV() == 0 {
			continue
		}
		jj := jointJSON{Name: record.JointName(m, b), Type: j.Type.String(), Body: body.Name, QOff: body.QOff, VOff: body.VOff, Lower: j.Lower, Upper: j.Upper, Damp: j.Damping, Arm: j.Armature}
		if j.Type == multibody.JointRevolute || j.Type == multibody.JointPrismatic {
			a := [3]float64(j.Axis)
			jj.Axis = &a
		}
		out.Joints = append(out.Joints, jj)
	}
	out.M = make([][]float64, m.NV)
	for i := range out.M {
		out.M[i] = make([]float64, m.NV)
	}
	for ti, tr := range m.Trees {
		blk := make([]float64, tr.NV*tr.NV)
		m.TreeMassMatrix(s, ti, blk)
		for i := range tr.NV {
			copy(out.M[tr.VOffset+i][tr.VOffset:], blk[i*tr.NV:(i+1)*tr.NV])
		}
	}
	out.Bias = make([]float64, m.NV)
	m.BiasForces(s, out.Bias)
	if im != nil {
		ij := &importJSON{Format: im.Format, Warnings: len(im.Warnings), Actuators: len(im.Actuators), Equalities: len(im.Equalities),
			JointFriction: len(im.JointFriction), Sites: len(im.Sites), FileMasses: map[string]float64{}}
		for _, l := range im.Links {
			ij.FileMasses[l.Name] = l.Mass
		}
		out.Import = ij
	}
	return out
}
