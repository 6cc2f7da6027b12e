// Package scene reads scene files (YAML) into a Scene, applies --set
// overrides, validates every field with errors that name the file, the field
// path and the value, and holds the embedded scenes runnable by name. Build
// turns a validated Scene into the engine's model, state and configuration.
package scene
