package validate

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestDrumwrightQuick runs the quick variants of Drumwright's claims: every
// row has an expected and a measured value and passes.
func TestDrumwrightQuick(t *testing.T) { runDrumwright(t, true) }

// TestDrumwrightFull runs the full variants (STICTION_LONG=1; minutes).
func TestDrumwrightFull(t *testing.T) {
	if os.Getenv("STICTION_LONG") != "1" {
		t.Skip("STICTION_LONG=1 runs the full variants")
	}
	runDrumwright(t, false)
}

func runDrumwright(t *testing.T, quick bool) {
	for _, c := range Claims() {
		if !strings.HasPrefix(c.ID, "drumwright/") || quick && !c.Quick {
			continue
		}
		start := time.Now()
		rows, err := c.Run(&Context{Quick: quick})
		t.Logf("%s: %v", c.ID, time.Since(start).Round(time.Millisecond))
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
