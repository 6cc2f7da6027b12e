// Package embedded holds the robot model files that ship inside the
// stiction binary (verbatim copies of Drake's drake_models package and of
// MuJoCo Menagerie's iiwa 14 and Allegro hand, with their licences:
// drake_models/README.md, mujoco_menagerie/README.md) and makes them
// readable as ordinary files. Models lists them with their source and
// licence (stiction models prints it).
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
