package main

/*
#include <stdlib.h>
#define STICTION_NO_PROTOTYPES
#include "stiction.h"
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/stiction-sim/stiction/batch"
	"github.com/stiction-sim/stiction/spatial"
)

// data is one simulation: a batch.Copy whose state and controls are in C
// memory, and the C arrays of its computed outputs.
type data struct {
	m      *model
	c      *batch.Copy
	owner  *cbatch          // the batch that owns it, or nil
	allocs []unsafe.Pointer // C memory of q, v, ctrl (not for a batch's copies)
	out    [6]carray        // ACTUATOR_FORCE, SENSORDATA, XPOSE (by array kind)
	con    unsafe.Pointer   // contacts, capacity ncon
	ncon   int
}

// carray is a C array of float64.
type carray struct {
	p []float64
}

// cfloats returns n zeroed float64s of C memory (at least one, so that
// the pointer is never NULL).
func cfloats(n int) (unsafe.Pointer, []float64) {
	p := C.calloc(C.size_t(max(n, 1)), 8)
	if p == nil {
		panic("stiction: out of memory")
	}
	return p, unsafe.Slice((*float64)(p), n)
}

// newData builds a data of m; alloc gives its q, v and ctrl (nil: C memory
// owned by the data).
func newData(m *model, alloc batch.Alloc) (*data, error) {
	b, err := m.build()
	if err != nil {
		return nil, err
	}
	d := &data{m: m}
	if alloc == nil {
		alloc = func(n int) []float64 {
			p, s := cfloats(n)
			d.allocs = append(d.allocs, p)
			return s
		}
	}
	if d.c, err = batch.NewCopy(b, alloc); err != nil {
		d.free()
		return nil, withCode(C.STICTION_E_LOAD, err)
	}
	return d, nil
}

// free releases the data's C memory.
func (d *data) free() {
	for _, p := range d.allocs {
		C.free(p)
	}
	d.allocs = nil
	for i := range d.out {
		if d.out[i].p != nil {
			C.free(unsafe.Pointer(unsafe.SliceData(d.out[i].p)))
			d.out[i].p = nil
		}
	}
	C.free(d.con)
	d.con, d.ncon = nil, 0
}

// array returns the C array of kind which, computed now for the outputs.
func (d *data) array(which C.int) ([]float64, error) {
	switch which {
	case C.STICTION_QPOS:
		return d.c.Qpos(), nil
	case C.STICTION_QVEL:
		return d.c.Qvel(), nil
	case C.STICTION_CTRL:
		return d.c.Ctrl(), nil
	case C.STICTION_ACTUATOR_FORCE:
		out := d.output(which, len(d.c.Ctrl()))
		d.c.ActuatorForces(out)
		return out, nil
	case C.STICTION_SENSORDATA:
		out := d.output(which, d.m.nsensordata())
		d.c.EvalSensors(out)
		return out, nil
	case C.STICTION_XPOSE:
		mb := d.c.Sim().Model
		out := d.output(which, 7*len(mb.Bodies))
		for i := range mb.Bodies {
			x := mb.BodyPose(d.c.Sim().State, i)
			copy(out[7*i:], []float64{x.P[0], x.P[1], x.P[2], x.R.W, x.R.X, x.R.Y, x.R.Z})
		}
		return out, nil
	}
	return nil, errorf(C.STICTION_E_ARG, "array %d: want STICTION_QPOS (0) to STICTION_XPOSE (5)", int(which))
}

// output returns the C array of an output, allocated on first use.
func (d *data) output(which C.int, n int) []float64 {
	if d.out[which].p == nil {
		_, d.out[which].p = cfloats(n)
	}
	return d.out[which].p
}

// contacts fills the C contact array from the last step.
func (d *data) contacts() (*C.stiction_contact, int) {
	s := d.c.Sim()
	pairs, gamma := s.Contacts(), s.Impulses()
	if len(pairs) > d.ncon {
		C.free(d.con)
		d.ncon = max(len(pairs), 2*d.ncon)
		d.con = C.calloc(C.size_t(d.ncon), C.size_t(unsafe.Sizeof(C.stiction_contact{})))
		if d.con == nil {
			panic("stiction: out of memory")
		}
	}
	if d.con == nil {
		d.ncon = 1
		d.con = C.calloc(1, C.size_t(unsafe.Sizeof(C.stiction_contact{})))
	}
	out := unsafe.Slice((*C.stiction_contact)(d.con), d.ncon)
	dt := s.Config().DT
	for k := range pairs {
		p := &pairs[k]
		var f spatial.Vec3
		if 3*k+2 < len(gamma) && d.c.Stepped() {
			t1, t2 := spatial.Orthonormal(p.Normal)
			g := gamma[3*k : 3*k+3]
			f = t1.Scale(g[0]).AddScaled(g[1], t2).AddScaled(g[2], p.Normal).Scale(1 / dt)
		}
		out[k] = C.stiction_contact{body_a: C.int32_t(p.BodyA), body_b: C.int32_t(p.BodyB),
			geom_a: C.int32_t(p.GeomA), geom_b: C.int32_t(p.GeomB), dist: C.double(p.Phi)}
		for i := 0; i < 3; i++ {
			out[k].pos[i], out[k].normal[i], out[k].force[i] = C.double(p.Point[i]), C.double(p.Normal[i]), C.double(f[i])
		}
	}
	return (*C.stiction_contact)(d.con), len(pairs)
}

// step takes n steps.
func (d *data) step(n int) error {
	if n < 0 {
		return errorf(C.STICTION_E_ARG, "stiction_data_step: %d steps", n)
	}
	for i, u := range d.c.Ctrl() {
		if math.IsNaN(u) || math.IsInf(u, 0) {
			return errorf(C.STICTION_E_ARG, "ctrl[%d] (actuator %s) = %v is not finite", i, d.m.names[C.STICTION_ACTUATOR][i], u)
		}
	}
	for k := 0; k < n; k++ {
		if err := d.c.Step(); err != nil {
			return errorf(C.STICTION_E_STEP, "step %d of %d (t = %g s): %w", k+1, n, d.c.Sim().State.T, err)
		}
	}
	return nil
}

func getData(h C.int64_t) (*data, error) { return lookup[*data](h, "data") }

//export stiction_data_make
func stiction_data_make(h C.int64_t, out *C.int64_t) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err != nil {
		return fail(err)
	}
	if out == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_data_make: out is NULL"))
	}
	d, err := newData(m, nil)
	if err != nil {
		return fail(err)
	}
	*out = C.int64_t(newHandle(d))
	return C.STICTION_OK
}

//export stiction_data_free
func stiction_data_free(h C.int64_t) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if d.owner != nil {
		return fail(errorf(C.STICTION_E_HANDLE, "data %d belongs to a batch: free the batch", int64(h)))
	}
	dropHandle(int64(h))
	d.free()
	return C.STICTION_OK
}

//export stiction_data_step
func stiction_data_step(h C.int64_t, n C.int) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err == nil {
		err = d.step(int(n))
	}
	if err != nil {
		return fail(err)
	}
	return C.STICTION_OK
}

//export stiction_data_reset
func stiction_data_reset(h C.int64_t) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err == nil {
		err = d.c.Reset()
	}
	if err != nil {
		return fail(err)
	}
	return C.STICTION_OK
}

//export stiction_data_reset_keyframe
func stiction_data_reset_keyframe(h C.int64_t, name *C.char) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if name == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_data_reset_keyframe: name is NULL"))
	}
	b, err := d.m.keyframe(C.GoString(name))
	if err == nil {
		err = d.c.ResetTo(b.State.Q, b.State.V, b.State.T, batch.InitialCtrl(b))
	}
	if err != nil {
		return fail(err)
	}
	return C.STICTION_OK
}

//export stiction_data_array
func stiction_data_array(h C.int64_t, which C.int, ptr **C.double, n *C.int) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if ptr == nil || n == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_data_array: ptr and len must not be NULL"))
	}
	a, err := d.array(which)
	if err != nil {
		return fail(err)
	}
	*ptr, *n = (*C.double)(unsafe.Pointer(unsafe.SliceData(a))), C.int(len(a))
	return C.STICTION_OK
}

//export stiction_data_contacts
func stiction_data_contacts(h C.int64_t, ptr **C.stiction_contact, n *C.int) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if ptr == nil || n == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_data_contacts: ptr and n must not be NULL"))
	}
	p, k := d.contacts()
	*ptr, *n = p, C.int(k)
	return C.STICTION_OK
}

//export stiction_data_stats
func stiction_data_stats(h C.int64_t, out *C.stiction_stats) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if out == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_data_stats: out is NULL"))
	}
	st := d.c.Stats()
	*out = C.stiction_stats{step: C.int64_t(d.c.Sim().Steps()), time: C.double(d.c.Sim().State.T),
		contacts: C.int32_t(st.Contacts), iterations: C.int32_t(st.Iterations), status: C.int32_t(st.Status),
		momentum_error: C.double(st.MomentumError), complementarity_error: C.double(st.ComplementarityError),
		kinetic_energy: C.double(st.KineticEnergy), potential_energy: C.double(st.PotentialEnergy),
		max_penetration: C.double(st.MaxPenetration)}
	return C.STICTION_OK
}

//export stiction_data_save
func stiction_data_save(h C.int64_t, path *C.char) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if path == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_data_save: path is NULL"))
	}
	if err := saveCheckpoint(d, C.GoString(path)); err != nil {
		return fail(withCode(C.STICTION_E_IO, err))
	}
	return C.STICTION_OK
}

//export stiction_data_load
func stiction_data_load(h C.int64_t, path *C.char) (rc C.int) {
	defer guard(&rc)
	d, err := getData(h)
	if err != nil {
		return fail(err)
	}
	if path == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_data_load: path is NULL"))
	}
	if err := loadCheckpoint(d, C.GoString(path)); err != nil {
		return fail(withCode(C.STICTION_E_IO, err))
	}
	return C.STICTION_OK
}
