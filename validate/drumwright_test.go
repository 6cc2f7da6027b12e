package validate

import (
	"strings"
	"testing"
)

// TestDrumwrightQuick runs the quick variants of Drumwright's claims: every
// row has an expected and a measured value and passes.
func TestDrumwrightQuick(t *testing.T) {
	for _, c := range Claims() {
		if !strings.HasPrefix(c.ID, "drumwright/") || !c.Quick {
			continue
		}
		rows, err := c.Run(&Context{Quick: true})
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		for _, r := range rows {
			t.Logf("%s | %s | %s | %s | %v", c.ID, r.Claim, r.Expected, r.Measured, r.Pass)
			if r.Expected == "" || r.Measured == "" || !r.Pass {
				t.Errorf("%s: %+v", c.ID, r)
			}
		}
	}
}
