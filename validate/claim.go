package validate

import (
	"fmt"
	"sort"
	"sync"
)

// Row is one line of the validation table.
type Row struct {
	Claim     string   // what is claimed, in words
	Source    string   // paper, figure/table, equation
	Expected  string   // the paper's value or bound
	Measured  string   // the value measured by this run
	Tolerance string   // the accepted deviation
	Pass      bool     // whether Measured meets Expected within Tolerance
	Plots     []string // files (relative to the report directory) written for this row
	Note      string   // optional remark printed under the table
}

// Context is what a claim receives: where to write plots and whether the
// quick (CI) variant is requested.
type Context struct {
	OutDir string // directory for plots; empty means write no plots
	Quick  bool   // run the reduced variant (fewer steps, coarser sweeps)
}

// Claim is one reproducible claim. Run returns one or more rows; an error
// means the claim could not be evaluated (reported as FAIL with the error).
type Claim struct {
	ID    string // stable identifier, e.g. "sap/resting-penetration"
	Group string // "SAP", "Drumwright", "Notes" or "Integrators"
	Quick bool   // part of the --quick subset
	Run   func(ctx *Context) ([]Row, error)
}

var (
	mu     sync.Mutex
	claims = map[string]Claim{}
)

// Register adds c to the registry; it panics on a duplicate ID, which is a
// programming error caught by any test run.
func Register(c Claim) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := claims[c.ID]; dup {
		panic(fmt.Sprintf("validate: duplicate claim %q", c.ID))
	}
	claims[c.ID] = c
}

// Claims returns the registered claims sorted by group and ID.
func Claims() []Claim {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Claim, 0, len(claims))
	for _, c := range claims {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].ID < out[j].ID
	})
	return out
}
