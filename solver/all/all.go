// Package all registers every solver of Stiction with package solver's
// registry (solver.New, scenes' solver.type, the command line's --solver):
// importing it for its side effects makes them all available by name.
package all

import (
	_ "github.com/stiction-sim/stiction/solver/drumwright" // "drumwright"
	_ "github.com/stiction-sim/stiction/solver/ipm"        // "ipm"
	_ "github.com/stiction-sim/stiction/solver/pgs"        // "pgs"
	_ "github.com/stiction-sim/stiction/solver/sap"        // "sap"
)
