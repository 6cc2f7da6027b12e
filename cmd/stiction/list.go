package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/stiction-sim/stiction/scene"
)

// cmdList prints the embedded scenes with their descriptions.
func cmdList(stdout io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, name := range scene.Names() {
		desc := ""
		if sc, err := scene.Load(name, nil); err == nil {
			desc = sc.Description
		}
		fmt.Fprintf(tw, "%s\t%s\n", name, desc)
	}
	tw.Flush()
	return 0
}
