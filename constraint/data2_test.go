package constraint

import (
	"testing"
	"unsafe"
)

// TestEntryFillsOneLine checks that an assembly entry is one 64-byte cache
// line (entry's doc comment: a step writes every entry).
func TestEntryFillsOneLine(t *testing.T) {
	if n := unsafe.Sizeof(entry{}); n != 64 {
		t.Fatalf("entry is %d bytes, want 64", n)
	}
}

// TestEntryBlocks checks blocks, forced and addSigned against the fields
// they replace: a limit with no side, the lower, the upper and both sides,
// and actuators with and without a block.
func TestEntryBlocks(t *testing.T) {
	for _, c := range []struct {
		signs  []float64
		blocks int32
		sign   [2]int8
	}{{nil, 0, [2]int8{}}, {[]float64{1}, 1, [2]int8{1, 0}}, {[]float64{-1}, 1, [2]int8{-1, 0}}, {[]float64{1, -1}, 2, [2]int8{1, -1}}} {
		e := entry{typ: TypeLimit, block: -1}
		for i, s := range c.signs {
			e.addSigned(7+i, s)
		}
		if e.blocks() != c.blocks || e.sign != c.sign || e.forced() || len(c.signs) > 0 && e.block != 7 {
			t.Errorf("signs %v: blocks %d sign %v block %d forced %v", c.signs, e.blocks(), e.sign, e.block, e.forced())
		}
	}
	if e := (entry{typ: TypeActuator, block: -1}); !e.forced() || e.blocks() != 0 {
		t.Errorf("actuator without a block: forced %v blocks %d", e.forced(), e.blocks())
	}
	if e := (entry{typ: TypeActuator, block: 3}); e.forced() || e.blocks() != 1 {
		t.Errorf("actuator with a block: forced %v blocks %d", e.forced(), e.blocks())
	}
}
