// Package grasp generates the embedded scene "grasp" (scene/scenes/
// grasp.yaml): Drake's KUKA iiwa 14 with the Allegro hand picks a box up
// from a table under PD control along a scripted trajectory.
//
// The scene includes the two robots from the models embedded in the
// binary (package model/embedded: embedded://drake_models/...), so it runs
// anywhere; a table, a box and the floor are its own bodies. Generate
// writes its text: the hand poses of the script (above the box, at the
// grasp, lifted) become arm configurations by damped least-squares inverse
// kinematics (ik.go), each arm target is offset by the gravity torque the
// PD servo must hold there (u = q + τ_hold(q)/kp, from inverse dynamics),
// and the targets of the 23 PD actuators are tables in time. The arm
// starts at its first configuration (the includes' set overrides).
//
//	go generate ./model/grasp   # rewrites scene/scenes/grasp.yaml
//
// TestGraspSceneUpToDate fails when the embedded file drifts from
// Generate; TestGraspLifts runs the scene headless and checks the lift.
package grasp

//go:generate go run ./gen -out ../../scene/scenes/grasp.yaml
