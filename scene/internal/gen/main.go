// Command gen writes the generated embedded scenes (clutter.yaml and
// clutter-nowalls.yaml) from scene.Clutter. Run it with go generate ./scene.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/stiction-sim/stiction/scene"
)

func main() {
	dir := flag.String("dir", "scenes", "directory to write the scene files to")
	flag.Parse()
	for _, walls := range []bool{true, false} {
		s := scene.Clutter(10, walls)
		data, err := scene.Marshal(s)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*dir, s.Name+".yaml"), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
