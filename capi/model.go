package main

/*
#include <stdlib.h>
#define STICTION_NO_PROTOTYPES
#include "stiction.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/scene"
)

// model is a loaded scene: each data is built from it.
type model struct {
	src    runner.Source
	sc     *scene.Scene
	built  *scene.Built // for the sizes and names
	joints []int        // body of each joint
	sadr   []int        // first value of each sensor
	sdim   []int
	names  [5][]string
	cnames [5][]*C.char // allocated at load, freed by stiction_model_free

	keyMu sync.Mutex
	keys  map[string]*scene.Built // keyframe states, built on first use
}

// loadModel reads and builds the scene or model file name.
func loadModel(name string, sets []string, ground bool) (*model, error) {
	src, err := runner.NewSource(name, sets, 0)
	if err != nil {
		return nil, withCode(C.STICTION_E_LOAD, err)
	}
	src.Model.Ground = ground
	sc, _, err := src.Load()
	if err != nil {
		return nil, withCode(C.STICTION_E_LOAD, err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		return nil, withCode(C.STICTION_E_LOAD, err)
	}
	m := &model{src: src, sc: sc, built: b, keys: map[string]*scene.Built{}}
	m.index()
	return m, nil
}

// index lists the names of every kind and the joints' and sensors' layout.
func (m *model) index() {
	mb := m.built.Model
	for i := range mb.Bodies {
		b := &mb.Bodies[i]
		m.names[C.STICTION_BODY] = append(m.names[C.STICTION_BODY], b.Name)
		if b.Tree >= 0 {
			m.joints = append(m.joints, i)
			n := b.Joint.Name
			if n == "" {
				n = b.Name
			}
			m.names[C.STICTION_JOINT] = append(m.names[C.STICTION_JOINT], n)
		}
	}
	if set := m.built.Config.Constraints; set != nil {
		for _, a := range set.Actuators {
			m.names[C.STICTION_ACTUATOR] = append(m.names[C.STICTION_ACTUATOR], a.Name)
		}
	}
	adr := 0
	for _, s := range m.built.Sensors {
		m.names[C.STICTION_SENSOR] = append(m.names[C.STICTION_SENSOR], s.Name)
		m.sadr, m.sdim = append(m.sadr, adr), append(m.sdim, s.Type.Dim())
		adr += s.Type.Dim()
	}
	m.names[C.STICTION_KEYFRAME] = m.sc.KeyframeNames()
	for k, list := range m.names {
		for _, n := range list {
			m.cnames[k] = append(m.cnames[k], C.CString(n))
		}
	}
}

func (m *model) nu() int { return len(m.names[C.STICTION_ACTUATOR]) }

func (m *model) nsensordata() int {
	if n := len(m.sadr); n > 0 {
		return m.sadr[n-1] + m.sdim[n-1]
	}
	return 0
}

// free releases the names' C memory.
func (m *model) free() {
	for k := range m.cnames {
		for _, p := range m.cnames[k] {
			C.free(unsafe.Pointer(p))
		}
		m.cnames[k] = nil
	}
}

// keyframe returns the scene built from keyframe name.
func (m *model) keyframe(name string) (*scene.Built, error) {
	m.keyMu.Lock()
	defer m.keyMu.Unlock()
	if b, ok := m.keys[name]; ok {
		return b, nil
	}
	src := m.src
	src.Keyframe = name
	b, err := src.Build()
	if err != nil {
		return nil, withCode(C.STICTION_E_ARG, err)
	}
	m.keys[name] = b
	return b, nil
}

// kind checks a kind of name.
func checkKind(kind C.int) error {
	if kind < C.STICTION_BODY || kind > C.STICTION_KEYFRAME {
		return errorf(C.STICTION_E_ARG, "kind %d: want STICTION_BODY (0) to STICTION_KEYFRAME (4)", int(kind))
	}
	return nil
}

var kindNames = [...]string{"body", "joint", "actuator", "sensor", "keyframe"}

//export stiction_model_load
func stiction_model_load(name *C.char, sets **C.char, nsets C.int, flags C.int, out *C.int64_t) (rc C.int) {
	defer guard(&rc)
	if name == nil || out == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_load: name and out must not be NULL"))
	}
	if nsets < 0 || nsets > 0 && sets == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_load: %d overrides at %p", int(nsets), sets))
	}
	if flags&^C.STICTION_GROUND != 0 {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_load: unknown flags %#x", int(flags)))
	}
	var list []string
	for i, p := range unsafe.Slice(sets, int(nsets)) {
		if p == nil {
			return fail(errorf(C.STICTION_E_ARG, "stiction_model_load: override %d is NULL", i))
		}
		list = append(list, C.GoString(p))
	}
	m, err := loadModel(C.GoString(name), list, flags&C.STICTION_GROUND != 0)
	if err != nil {
		return fail(err)
	}
	*out = C.int64_t(newHandle(m))
	return C.STICTION_OK
}

//export stiction_model_free
func stiction_model_free(h C.int64_t) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err != nil {
		return fail(err)
	}
	dropHandle(int64(h))
	m.free()
	return C.STICTION_OK
}

//export stiction_model_sizes
func stiction_model_sizes(h C.int64_t, out *C.stiction_sizes) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err != nil {
		return fail(err)
	}
	if out == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_sizes: out is NULL"))
	}
	mb := m.built.Model
	*out = C.stiction_sizes{
		nq: C.int32_t(mb.NQ), nv: C.int32_t(mb.NV), nu: C.int32_t(m.nu()),
		nbody: C.int32_t(len(mb.Bodies)), njoint: C.int32_t(len(m.joints)),
		nsensor: C.int32_t(len(m.sadr)), nsensordata: C.int32_t(m.nsensordata()),
		nkeyframe: C.int32_t(len(m.names[C.STICTION_KEYFRAME])), dt: C.double(m.built.Config.DT),
	}
	return C.STICTION_OK
}

//export stiction_model_name
func stiction_model_name(h C.int64_t, kind, i C.int, out **C.char) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err == nil {
		err = checkKind(kind)
	}
	if err != nil {
		return fail(err)
	}
	if out == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_name: out is NULL"))
	}
	list := m.cnames[kind]
	if i < 0 || int(i) >= len(list) {
		return fail(errorf(C.STICTION_E_ARG, "no %s %d (the model has %d)", kindNames[kind], int(i), len(list)))
	}
	*out = list[i]
	return C.STICTION_OK
}

//export stiction_model_index
func stiction_model_index(h C.int64_t, kind C.int, name *C.char, out *C.int) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err == nil {
		err = checkKind(kind)
	}
	if err != nil {
		return fail(err)
	}
	if name == nil || out == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_index: name and out must not be NULL"))
	}
	n := C.GoString(name)
	for i, s := range m.names[kind] {
		if s == n {
			*out = C.int(i)
			return C.STICTION_OK
		}
	}
	return fail(errorf(C.STICTION_E_ARG, "no %s named %q (%d %ss)", kindNames[kind], n, len(m.names[kind]), kindNames[kind]))
}

//export stiction_model_joint
func stiction_model_joint(h C.int64_t, j C.int, out *C.stiction_joint_info) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err != nil {
		return fail(err)
	}
	if out == nil || j < 0 || int(j) >= len(m.joints) {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_joint: no joint %d (%d joints) or out is NULL", int(j), len(m.joints)))
	}
	bi := m.joints[j]
	b := &m.built.Model.Bodies[bi]
	*out = C.stiction_joint_info{body: C.int32_t(bi), parent: C.int32_t(b.Joint.Parent),
		qadr: C.int32_t(b.QOff), nq: C.int32_t(b.Joint.NQ()), vadr: C.int32_t(b.VOff), nv: C.int32_t(b.Joint.NV())}
	return C.STICTION_OK
}

//export stiction_model_body
func stiction_model_body(h C.int64_t, bi C.int, out *C.stiction_body_info) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err != nil {
		return fail(err)
	}
	bodies := m.built.Model.Bodies
	if out == nil || bi < 0 || int(bi) >= len(bodies) {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_body: no body %d (%d bodies) or out is NULL", int(bi), len(bodies)))
	}
	b := &bodies[bi]
	joint := -1
	for j, jb := range m.joints {
		if jb == int(bi) {
			joint = j
		}
	}
	c := b.Inertia.Com
	*out = C.stiction_body_info{mass: C.double(b.Inertia.Mass), joint: C.int32_t(joint)}
	out.com = [3]C.double{C.double(c[0]), C.double(c[1]), C.double(c[2])}
	return C.STICTION_OK
}

//export stiction_model_sensor
func stiction_model_sensor(h C.int64_t, i C.int, out *C.stiction_sensor_info) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err != nil {
		return fail(err)
	}
	if out == nil || i < 0 || int(i) >= len(m.sadr) {
		return fail(errorf(C.STICTION_E_ARG, "stiction_model_sensor: no sensor %d (%d sensors) or out is NULL", int(i), len(m.sadr)))
	}
	*out = C.stiction_sensor_info{adr: C.int32_t(m.sadr[i]), dim: C.int32_t(m.sdim[i])}
	return C.STICTION_OK
}

// build builds a new model, state and configuration of the scene.
func (m *model) build() (*scene.Built, error) {
	b, err := scene.Build(m.sc)
	if err != nil {
		return nil, withCode(C.STICTION_E_LOAD, err)
	}
	return b, nil
}
