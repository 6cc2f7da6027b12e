// Package mjref is test tooling that compares Stiction with MuJoCo 2.2.2 on
// public MJCF models (issue 21): dm_control's suite, Gymnasium's MuJoCo
// assets and a selection of MuJoCo's own model and test files, copied with
// their licences into testdata (testdata/README.md gives their origin).
//
// The reference is csrc/mjref.c (outside the package directory proper, as
// Go refuses C files in a package without cgo), a small C program built with gcc against
// Debian's libmujoco-dev (BuildTool). It loads a model, optionally sets a
// keyframe or an initial state, steps it with zero control and prints the
// model's sizes, bodies, joints, sensors, mass matrix and the trajectory
// (qpos, qvel, sensor data, optionally every body's pose) as JSON,
// which Exec decodes into a Run. The engine itself stays pure Go (no cgo):
// the tests run the C tool as a separate process, and skip with a message
// naming what is missing where gcc or libmujoco is absent.
//
// MuJoCo and Stiction lay out coordinates differently. MuJoCo's free joint
// has qpos = (x, y, z, qw, qx, qy, qz) and qvel = (velocity of the body
// origin in the world, angular velocity in the body frame); Stiction's has
// q = (qw, qx, qy, qz, x, y, z) and v = (angular velocity in the world,
// velocity of the body origin in the world). MuJoCo's ball joint velocity is
// in the child's frame, Stiction's in the parent's joint frame. Hinge and
// slide joints are the same scalars. FreeQ, FreeV, BallV and their
// inverses convert one joint; the parity tests map joints and bodies by name,
// because MuJoCo orders degrees of freedom depth-first in file order and
// Stiction tree by tree.
//
// The parity tests (parity_test.go) hold a table of each model's expected
// status and fail when a model does worse; `go test ./internal/mjref -run
// TestParityTable -update` rewrites the table in docs/MODELS.md, and
// STICTION_LONG=1 adds the 10-second runs.
//
// The tool's -stages K option (Options.Stages, Run.Stages) records the
// evaluations of mj_forwardSkip within step K (RK4's four stages, Euler's
// one): each one's q, v, resulting qacc, contacts and constraint rows, to
// find the stage where two runs part.
//
// The tool's timing mode (-time R, Time) times N mj_step calls from the
// initial state with zero control, wall and process CPU time, the fastest
// of R runs; BenchmarkStepVsMuJoCo times Stiction's step on the same
// dm_control and Gymnasium files and reports Stiction ÷ MuJoCo per model
// (issue 23, BENCHMARKS.md).
package mjref
