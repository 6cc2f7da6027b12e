package sap

import (
	"math/rand/v2"
	"testing"
)

// TestStackmuljFiveColumnProductsBits: packedJ.mulJ and mulJT, with the
// five-column contact blocks written out (mulJ5, mulJT5, a sphere's
// contact), give the general loops' bits on random packings of mostly
// such blocks, with zeros of both signs in J, v and γ; fails when a
// written-out entry reads the wrong column or row or adds in another
// order.
func TestStackmuljFiveColumnProductsBits(t *testing.T) {
	if n := predict2CheckProducts(t, rand.New(rand.NewPCG(103, 5)), 5, 500); n < 500 {
		t.Fatalf("only %d five-column contact blocks drawn", n)
	}
}

// TestStackmuljFiveOnlyBits: a packing whose every block is a contact of
// five columns (pk.five, mulJFive) gives the general loops' bits; fails
// when mulJFive skips a block or reads another block's columns or values.
func TestStackmuljFiveOnlyBits(t *testing.T) {
	if n := predict2CheckPacked(t, rand.New(rand.NewPCG(103, 6)), 5, 300, true); n < 300 {
		t.Fatalf("only %d five-column contact blocks drawn", n)
	}
}
