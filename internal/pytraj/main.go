// Command pytraj prints a reference trajectory for the Python binding's
// tests (python/tests): it loads a scene or model, steps it with the
// controls ctrl[k] = ((7·step + 3·k) mod 11 − 5) / 10 (exact in binary and
// in both languages) and prints, after every step, the bits of q and v in
// hexadecimal, one line per step.
//
//	go run ./internal/pytraj SCENE STEPS
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/stiction-sim/stiction/batch"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "pytraj:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: pytraj SCENE STEPS")
	}
	steps, err := strconv.Atoi(args[1])
	if err != nil {
		return fmt.Errorf("steps %q: %w", args[1], err)
	}
	sc, _, err := modelload.Scene(args[0], nil, modelload.Options{})
	if err != nil {
		return err
	}
	b, err := scene.Build(sc)
	if err != nil {
		return err
	}
	c, err := batch.NewCopy(b, batch.Make)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for s := 0; s < steps; s++ {
		for k := range c.Ctrl() {
			c.Ctrl()[k] = float64((7*s+3*k)%11-5) / 10
		}
		if err := c.Step(); err != nil {
			return err
		}
		for _, x := range c.Qpos() {
			fmt.Fprintf(w, "%016x ", math.Float64bits(x))
		}
		for _, x := range c.Qvel() {
			fmt.Fprintf(w, "%016x ", math.Float64bits(x))
		}
		fmt.Fprintln(w)
	}
	return nil
}
