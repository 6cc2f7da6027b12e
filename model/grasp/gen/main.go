// Command gen writes the embedded grasp scene (package model/grasp).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/stiction-sim/stiction/model/grasp"
)

func main() {
	out := flag.String("out", "../../scene/scenes/grasp.yaml", "output file")
	flag.Parse()
	data, err := grasp.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
