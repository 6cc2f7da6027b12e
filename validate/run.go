package validate

import (
	"fmt"
	"time"
)

// Result is what one claim produced when run.
type Result struct {
	Claim   Claim
	Rows    []Row
	Elapsed time.Duration
}

// Run runs the given claims in order. A claim that returns an error, no
// rows, or a row without Expected or Measured yields FAIL rows saying so;
// Run itself never fails.
func Run(ctx *Context, cs []Claim) []Result {
	out := make([]Result, 0, len(cs))
	for _, c := range cs {
		start := time.Now()
		rows, err := c.Run(ctx)
		r := Result{Claim: c, Rows: rows, Elapsed: time.Since(start)}
		if err != nil {
			r.Rows = append(r.Rows, Row{Claim: c.ID, Source: "—", Expected: "claim evaluates", Measured: "error: " + err.Error(), Tolerance: "—"})
		}
		if len(r.Rows) == 0 {
			r.Rows = []Row{{Claim: c.ID, Source: "—", Expected: "at least one row", Measured: "no rows", Tolerance: "—"}}
		}
		for i := range r.Rows {
			if r.Rows[i].Expected == "" || r.Rows[i].Measured == "" {
				r.Rows[i].Pass = false
				r.Rows[i].Note = "empty Expected or Measured. " + r.Rows[i].Note
			}
		}
		out = append(out, r)
	}
	return out
}

// Select returns the registered claims, only the quick ones when quick is
// set.
func Select(quick bool) []Claim {
	var out []Claim
	for _, c := range Claims() {
		if !quick || c.Quick {
			out = append(out, c)
		}
	}
	return out
}

// Counts returns the number of passing and failing rows.
func Counts(rs []Result) (pass, fail int) {
	for _, r := range rs {
		for _, row := range r.Rows {
			if row.Pass {
				pass++
			} else {
				fail++
			}
		}
	}
	return pass, fail
}

// verdict is PASS or FAIL.
func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// fmtSig formats a number with n significant digits.
func fmtSig(x float64, n int) string { return fmt.Sprintf("%.*g", n, x) }
