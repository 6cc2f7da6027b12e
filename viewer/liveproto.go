package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// MaxRate is the largest real-time factor a session accepts.
const MaxRate = 100.0

// MaxMessage is the largest message, bytes, a page may send.
const MaxMessage = 4096

// Command is one message from a page to a live session (JSON, one object
// per WebSocket text message). Type selects the command; the other fields
// are its arguments (docs/VIEWER.md lists them):
//
//	pause, resume, step {count}, reset {keyframe}, rate {factor},
//	control {actuator, value}, zero, qpos {joint, value: [...]},
//	perturb {body, point, target} or {body, rotation}, release,
//	record, open {model}, ping {id}, ack (a frame was drawn: flow control)
type Command struct {
	Type     string      `json:"type"`
	Count    int         `json:"count,omitempty"`    // step: steps to take (default 1)
	Keyframe string      `json:"keyframe,omitempty"` // reset: keyframe name ("" the initial state)
	Factor   *float64    `json:"factor,omitempty"`   // rate: real-time factor (0 as fast as possible)
	Actuator *int        `json:"actuator,omitempty"` // control: index in the hello's actuators
	Joint    *int        `json:"joint,omitempty"`    // qpos: index in the hello's joints
	Value    []float64   `json:"value,omitempty"`    // control: [u]; qpos: the joint's q
	Body     *int        `json:"body,omitempty"`     // perturb: body index
	Point    *[3]float64 `json:"point,omitempty"`    // perturb: grabbed point, body frame, m
	Target   *[3]float64 `json:"target,omitempty"`   // perturb: world target of the point, m
	Rotation *[4]float64 `json:"rotation,omitempty"` // perturb: world target orientation (w, x, y, z)
	Model    string      `json:"model,omitempty"`    // open: model or scene name from the hello's list
	ID       int         `json:"id,omitempty"`       // echoed in the reply
}

// MaxStepCount is the most steps one step command takes.
const MaxStepCount = 10000

// DecodeCommand parses and validates one message. It never panics: any
// malformed, unknown or out-of-range input is an error naming the field.
func DecodeCommand(data []byte) (Command, error) {
	var c Command
	if len(data) > MaxMessage {
		return c, fmt.Errorf("message of %d bytes: at most %d", len(data), MaxMessage)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return Command{Type: c.Type}, fmt.Errorf("bad message: %w", err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return Command{Type: c.Type}, errors.New("bad message: more than one JSON value")
	}
	return c, c.Validate()
}

// Validate checks the fields that command c needs, without a model (the
// session checks indices against its model).
func (c *Command) Validate() error {
	var err error
	switch c.Type {
	case "pause", "resume", "zero", "release", "record", "ping", "ack":
	case "step":
		if c.Count < 0 || c.Count > MaxStepCount {
			err = fmt.Errorf("count %d: want 1 to %d", c.Count, MaxStepCount)
		}
	case "reset":
	case "rate":
		switch {
		case c.Factor == nil:
			err = errors.New("needs factor")
		case !(*c.Factor >= 0 && *c.Factor <= MaxRate):
			err = fmt.Errorf("factor %v: want 0 (as fast as possible) to %v", *c.Factor, MaxRate)
		}
	case "control":
		err = errors.Join(need("actuator", c.Actuator), finiteN("value", c.Value, 1))
	case "qpos":
		err = need("joint", c.Joint)
		if len(c.Value) == 0 || len(c.Value) > 7 {
			err = errors.Join(err, fmt.Errorf("value: want the joint's 1 to 7 coordinates, got %d", len(c.Value)))
		}
		err = errors.Join(err, finiteN("value", c.Value, len(c.Value)))
	case "perturb":
		err = c.validatePerturb()
	case "open":
		if c.Model == "" {
			err = errors.New("needs model")
		}
	case "":
		err = errors.New("needs type")
	default:
		err = fmt.Errorf("unknown type %q", c.Type)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", c.Type, err)
	}
	return nil
}

func (c *Command) validatePerturb() error {
	err := need("body", c.Body)
	switch {
	case c.Rotation != nil && (c.Point != nil || c.Target != nil):
		return errors.Join(err, errors.New("give point and target (force) or rotation (torque), not both"))
	case c.Rotation != nil:
		q := c.Rotation[:]
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		err = errors.Join(err, finiteN("rotation", q, 4))
		if !(math.Abs(n-1) < 1e-3) {
			err = errors.Join(err, fmt.Errorf("rotation %v: want a unit quaternion", q))
		}
		return err
	case c.Point == nil || c.Target == nil:
		return errors.Join(err, errors.New("needs point and target, or rotation"))
	}
	return errors.Join(err, finiteN("point", c.Point[:], 3), finiteN("target", c.Target[:], 3), bounded("target", c.Target[:], 1e3))
}

func need(name string, p *int) error {
	if p == nil {
		return fmt.Errorf("needs %s", name)
	}
	if *p < 0 {
		return fmt.Errorf("%s %d: want an index ≥ 0", name, *p)
	}
	return nil
}

func finiteN(name string, x []float64, n int) error {
	if len(x) != n {
		return fmt.Errorf("%s: want %d numbers, got %d", name, n, len(x))
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s[%d] = %v: want a finite number", name, i, v)
		}
	}
	return nil
}

func bounded(name string, x []float64, lim float64) error {
	for i, v := range x {
		if math.Abs(v) > lim {
			return fmt.Errorf("%s[%d] = %v: want |x| ≤ %v m", name, i, v, lim)
		}
	}
	return nil
}
