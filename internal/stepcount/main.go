package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/stiction-sim/stiction/internal/peers"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

func main() {
	steps := flag.Int("steps", 100, "steps to advance")
	peer := flag.Bool("peer", false, "the argument names a peer scene of internal/peers, not a model file")
	flag.Parse()
	if flag.NArg() != 1 || *steps < 0 {
		fmt.Fprintln(os.Stderr, "usage: stepcount [-steps N] [-peer] MODEL_FILE|PEER_NAME")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *peer, *steps); err != nil {
		fmt.Fprintln(os.Stderr, "stepcount:", err)
		os.Exit(1)
	}
}

// run builds the simulation and advances it steps times.
func run(name string, peer bool, steps int) error {
	sc, err := load(name, peer)
	if err != nil {
		return err
	}
	b, err := scene.Build(sc)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for k := range steps {
		if err := s.Advance(); err != nil {
			return fmt.Errorf("%s: step %d: %w", name, k+1, err)
		}
	}
	return nil
}

// load reads a peer scene by name or a model file by path.
func load(name string, peer bool) (*scene.Scene, error) {
	if peer {
		return peers.Load(name, nil)
	}
	sc, _, err := modelload.Scene(name, nil, modelload.Options{})
	return sc, err
}
