// Package model holds what the robot-model importers (model/urdf,
// model/sdf, model/mjcf) have in common: their result (Import: a scene in
// the same in-memory form the YAML loader produces, the warnings, and the
// parsed elements that the engine does not simulate yet: actuators,
// equality constraints and couplers, joint friction), their options
// (package:// and model:// search paths, a floating or welded root), and
// helpers to resolve URIs and lump a massless floating root.
//
// Package model/load picks the importer by file extension and resolves
// scene includes.
package model
