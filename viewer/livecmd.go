package viewer

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// handle runs command c on the Run goroutine.
func (s *Session) handle(c Command) error {
	switch c.Type {
	case "pause", "resume":
		s.setPaused(c.Type == "pause")
	case "step":
		return s.cmdStep(c.Count)
	case "reset":
		return s.cmdReset(c.Keyframe)
	case "rate":
		s.rate = *c.Factor
		s.reanchor(time.Now())
	case "control":
		if err := s.cmdControl(*c.Actuator, c.Value[0]); err != nil {
			return err
		}
		s.respond()
		return nil
	case "zero":
		for i := range s.ctrl {
			if err := s.cmdControl(i, 0); err != nil {
				return err
			}
		}
		s.respond()
		return nil
	case "qpos":
		return s.cmdQpos(*c.Joint, c.Value)
	case "perturb":
		if err := s.cmdPerturb(c); err != nil {
			return err
		}
		s.respond()
		return nil
	case "release":
		s.pert.Release()
		s.respond()
		return nil
	case "record":
		dir, err := s.cmdRecord()
		if err != nil {
			return err
		}
		s.hub.broadcast(recordedMessage(dir), false)
		return nil
	case "open":
		return s.cmdOpen(c.Model)
	case "ping", "ack":
		return nil
	default:
		return fmt.Errorf("unknown command %q", c.Type)
	}
	s.publish()
	return nil
}

// cmdStep takes n steps (1 when n is 0) of a paused session.
func (s *Session) cmdStep(n int) error {
	if !s.paused {
		return errPaused
	}
	for range max(n, 1) {
		if !s.stepOnce() {
			return s.stepErr
		}
	}
	s.publish()
	return nil
}

// cmdReset restores the initial state bit for bit (Simulator.Restore of
// the checkpoint taken at the start), or loads keyframe key afresh.
func (s *Session) cmdReset(key string) error {
	if key != "" {
		if !slices.Contains(s.keys, key) {
			return fmt.Errorf("no keyframe %q (keyframes: %v)", key, s.keys)
		}
		if err := s.open(s.name, key); err != nil {
			return err
		}
		s.broadcastHello()
		s.publish()
		return nil
	}
	if err := s.sim.Restore(s.init); err != nil {
		return err
	}
	s.restart()
	s.hub.broadcast(resetMessage(), true)
	s.publish()
	return nil
}

// cmdControl sets actuator i's control input to u, clamped to its control
// range (as MuJoCo clamps ctrl).
func (s *Session) cmdControl(i int, u float64) error {
	acts := s.actuators()
	if i >= len(acts) {
		return fmt.Errorf("actuator %d: the model has %d", i, len(acts))
	}
	if a := acts[i]; a.CtrlMin < a.CtrlMax {
		u = math.Min(math.Max(u, a.CtrlMin), a.CtrlMax)
	}
	if err := s.sim.SetControl(i, u, 0); err != nil {
		return err
	}
	s.ctrl[i] = u
	return nil
}

// cmdQpos sets joint j's coordinates while paused (a quaternion is
// normalized); the joint's velocity is left as it is.
func (s *Session) cmdQpos(j int, q []float64) error {
	if !s.paused {
		return errPaused
	}
	m := s.b.Model
	js := jointBodies(m)
	if j >= len(js) {
		return fmt.Errorf("joint %d: the model has %d", j, len(js))
	}
	b := &m.Bodies[js[j]]
	if nq := b.Joint.NQ(); len(q) != nq {
		return fmt.Errorf("joint %d (%s): want %d coordinates, got %d", j, jointName(m, js[j]), nq, len(q))
	}
	dst := s.sim.State.Q[b.QOff : b.QOff+len(q)]
	copy(dst, q)
	normalizeQuats(b.Joint.Type, dst)
	if s.sens != nil {
		s.sens.stepped = false // the last step no longer ends here
	}
	s.hist.edit(s.sim)
	s.publish()
	return nil
}

// normalizeQuats makes the quaternion of a free or ball joint's q unit.
func normalizeQuats(t multibody.JointType, q []float64) {
	if t != multibody.JointFree && t != multibody.JointBall {
		return
	}
	r := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
	if n := r.Norm(); n > 0 {
		r = r.Scale(1 / n)
	} else {
		r = spatial.Quat{W: 1}
	}
	q[0], q[1], q[2], q[3] = r.W, r.X, r.Y, r.Z
}

// cmdPerturb grabs or twists a body.
func (s *Session) cmdPerturb(c Command) error {
	m := s.b.Model
	b := *c.Body
	if b >= len(m.Bodies) {
		return fmt.Errorf("body %d: the model has %d", b, len(m.Bodies))
	}
	if m.Bodies[b].Tree < 0 {
		return fmt.Errorf("body %d (%s) is welded to the world", b, m.Bodies[b].Name)
	}
	if c.Rotation != nil {
		r := c.Rotation
		s.pert.Twist(m, b, spatial.Quat{W: r[0], X: r[1], Y: r[2], Z: r[3]})
	} else {
		s.pert.Grab(m, b, spatial.Vec3(*c.Point), spatial.Vec3(*c.Target))
	}
	return nil
}

// cmdOpen makes model name the session's.
func (s *Session) cmdOpen(name string) error {
	if !slices.Contains(s.opt.Models, name) && name != s.name {
		return fmt.Errorf("model %q is not in the list", name)
	}
	if err := s.open(name, ""); err != nil {
		return err
	}
	s.broadcastHello()
	s.publish()
	return nil
}

// cmdRecord writes the history as a new run directory under RecordDir.
func (s *Session) cmdRecord() (string, error) {
	s.nrec++
	dir := filepath.Join(s.opt.RecordDir, fmt.Sprintf("session-%s-%d", time.Now().Format("20060102-150405"), s.nrec))
	return dir, s.hist.write(dir, s.wallTime().Seconds())
}

// stepOK reports whether step st converged.
func stepOK(st sim.StepStats) bool { return record.StepConverged(st) }
