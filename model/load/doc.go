// Package load is the one entry point for everything stiction can run:
// embedded scenes, YAML scene files (with their includes resolved) and
// robot model files (MJCF .xml, URDF .urdf, SDFormat .sdf), which are
// imported, optionally given a ground, and then go through the same
// --set overrides and validation as a YAML scene.
package load
