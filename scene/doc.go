// Package scene reads scene files (YAML) into a Scene, applies --set
// overrides, merges included robot models (through an Includer, see
// ParseWith), validates every field with errors that name the file, the
// field path and the value, and holds the embedded scenes runnable by
// name.
//
// Building is two documented steps: BuildModel turns a validated Scene
// into the static multibody.Model (bodies, joints, collision geometries
// with their materials' indices, mesh convex hulls, collision filters,
// visuals) and the initial State; BuildConfig turns it, with that model,
// into the sim.Config (time step, scheme, contact parameters, materials,
// solver, force elements). Build does both.
package scene
