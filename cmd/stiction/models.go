package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/embedded"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
)

// modelRow is one line of stiction models.
type modelRow struct {
	embedded.Model
	Bodies, DOFs, Actuators int
	Err                     error
}

// embeddedModels imports and builds every embedded robot model file
// (package model/embedded) with the default options: the root of a URDF
// or SDFormat file welded to the world.
func embeddedModels() []modelRow {
	var rows []modelRow
	for _, m := range embedded.Models() {
		r := modelRow{Model: m}
		im, err := modelload.Model(m.URI, model.Options{})
		if err == nil {
			var b *scene.Built
			if b, err = scene.Build(im.Scene); err == nil {
				r.Bodies, r.DOFs, r.Actuators = fileBodies(im), b.Model.NV, len(im.Scene.Actuators)
			}
		}
		r.Err = err
		rows = append(rows, r)
	}
	return rows
}

// fileBodies counts the bodies (links) of an imported file, MJCF's world
// body not counted (the importer adds it when the world has geoms).
func fileBodies(im *model.Import) int {
	n := 0
	for _, l := range im.Links {
		if im.Format != "mjcf" || l.Name != "worldbody" {
			n++
		}
	}
	return n
}

// cmdModels prints the embedded robot models: name (for run, inspect and
// a scene's include), format, the file's bodies (the world not counted),
// degrees of freedom with a URDF or SDFormat root welded, the actuators
// simulated (the scene's: one motor per actuated SDFormat joint), source
// (repository@commit) and licence (its files in the embedded tree). It
// returns 1 if a model failed to load.
func cmdModels(stdout, stderr io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tFORMAT\tBODIES\tDOFS\tACTUATORS\tSOURCE\tLICENCE")
	status := 0
	for _, r := range embeddedModels() {
		if r.Err != nil {
			fmt.Fprintf(stderr, "stiction: %s: %v\n", r.URI, r.Err)
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t%s\t%s\n", r.URI, r.Format, r.Source, r.Licence)
			status = 1
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.URI, r.Format, strconv.Itoa(r.Bodies), strconv.Itoa(r.DOFs), strconv.Itoa(r.Actuators), r.Source, r.Licence)
	}
	tw.Flush()
	return status
}
