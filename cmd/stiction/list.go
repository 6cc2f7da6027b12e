package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/stiction-sim/stiction/scene"
	"go.yaml.in/yaml/v3"
)

// cmdList prints the embedded scenes with their descriptions.
func cmdList(stdout io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, name := range scene.Names() {
		// The description alone: a scene that includes robot models needs
		// their files to load, not to be listed.
		var head struct {
			Description string `yaml:"description"`
		}
		data, _ := scene.Embedded(name)
		_ = yaml.Unmarshal(data, &head)
		desc := head.Description
		fmt.Fprintf(tw, "%s\t%s\n", name, desc)
	}
	tw.Flush()
	return 0
}
