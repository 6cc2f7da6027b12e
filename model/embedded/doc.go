// Package embedded holds the robot model files that ship inside the
// stiction binary (a verbatim subset of Drake's drake_models package, with
// its licences: drake_models/README.md) and makes them readable as
// ordinary files.
//
// Scene files name them with the embedded:// scheme, for example
//
//	include:
//	  - file: embedded://drake_models/iiwa_description/urdf/iiwa14_spheres_collision.urdf
//
// The importers read models and meshes from the file system, so Path
// writes the embedded tree once into a cache directory (named by a hash
// of its contents, under os.UserCacheDir or else the temporary directory)
// and returns the real path of the file there.
package embedded
