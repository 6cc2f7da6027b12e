// Package sensor computes MuJoCo-style sensor readings (MJCF <sensor>) from a
// model, its state and the results of the step that led to it.
//
// A Set is built once from Specs (NewSet) and evaluated after every step
// (Evaluate) into a caller's slice, without allocating. The readings follow
// MuJoCo 2.2.2 (engine_sensor.c):
//
//   - jointpos, jointvel: a hinge or slide coordinate and its velocity (a
//     part of a compound joint included);
//   - framepos, framequat, framexaxis, frameyaxis, framezaxis, framelinvel,
//     frameangvel: a frame's position, orientation (w, x, y, z), axes and
//     velocity in the world, or relative to a reference frame (RefBody ≥
//     −1 with HasRef), as MuJoCo's reftype/refname;
//   - gyro, velocimeter: a site's angular and linear velocity in the site
//     frame;
//   - accelerometer: a site's linear acceleration minus gravity, in the site
//     frame (a body at rest reads +g up); framelinacc, frameangacc: a
//     frame's linear acceleration minus gravity and its angular
//     acceleration, in the world frame (no reference frame);
//   - touch: the sum of the normal contact forces on the site's body whose
//     ray (from the contact point, along the normal away from the body)
//     meets the site's zone;
//   - force, torque: the wrench that the site's body receives from its
//     parent (the momentum rate of its subtree minus gravity and contact
//     forces), in the site frame, the torque about the site;
//   - actuatorfrc: an actuator's force, before its gear;
//   - subtreecom, subtreelinvel, subtreeangmom: the centre of mass of a
//     body's subtree (Body −1: every moving body), its velocity, and the
//     subtree's angular momentum about it, in the world frame.
//
// Position and velocity sensors read the state given to Evaluate (the end
// of the step). Acceleration and force sensors (accelerometer,
// framelinacc, frameangacc, touch, force, torque, actuatorfrc) describe the step that led to it: they are
// evaluated at the step's start configuration (q0, v0), with the step's
// acceleration (v − v0)/δt and its contact and actuator forces. This is
// MuJoCo's own convention: after mj_step, sensordata holds the
// acceleration-stage values of the state the step started from.
//
// A sensor's cutoff clamps its values to [−cutoff, cutoff] (touch: to at
// most cutoff); quaternions and axes are not clamped.
package sensor
