// Command stiction runs Stiction simulations from scene files or embedded
// scenes.
//
//	stiction list
//	stiction run SCENE_OR_FILE [--dt S] [--duration S] [--scheme NAME] [--set path=value]... [--out DIR] [--quiet]
//	stiction inspect MODEL_OR_SCENE [--floating] [--keyframe NAME] [--package-path DIR]...
//	stiction fclib FILE... [--eps E] [--tol T] [--refine N]
//	stiction view RUN_DIR [--port N] [--addr A]
//	stiction export RUN_DIR --gltf OUT.glb
//	stiction plot RUN_DIR --y COL,... --out FILE.png|.svg
//
// Run "stiction help" for details. The exit status is 0 on success, 1 when a
// step failed (a contact solve that did not converge), and 2 on bad input.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  stiction list
      list the embedded scenes
  stiction run SCENE_OR_FILE [--dt S] [--duration S] [--scheme NAME] [--set path=value]... [--out DIR] [--quiet]
      run an embedded scene or a scene file; --scheme picks the integrator
      (explicit-euler, symplectic-euler, implicit-euler, midpoint); --set overrides any scene field
      (see docs/SCENES.md for the path syntax), --out writes summary.json,
      steps.csv and trajectory.csv to DIR
      (plus scene.json and contacts.csv for the viewer); --view [--port N]
      [--addr A] streams the run to the viewer while it goes
      SCENE_OR_FILE may be a robot model: MODEL.xml (MJCF), MODEL.urdf or MODEL.sdf;
      --ground adds a floor, --floating frees a URDF/SDFormat root link,
      --keyframe NAME starts from a keyframe, --package-path DIR and
      --model-path DIR find package:// and model:// files, --warnings lists
      import warnings (docs/MODELS.md); --out also writes joints.csv
  stiction inspect MODEL_OR_SCENE [--floating] [--keyframe NAME] [--package-path DIR]...
      print a model's bodies, joints, nq, nv, masses, inertias, M(q0) and
      bias forces at q0 as JSON
  stiction view RUN_DIR [--port N] [--addr A]
      serve a 3D playback of a run directory on http://127.0.0.1:PORT/
      (default port 8765; --addr to listen on another interface)
  stiction export RUN_DIR --gltf OUT.glb
      write the bodies' meshes and their motion as a glTF 2.0 binary
  stiction plot RUN_DIR --y COL[,COL...] --out FILE.png|FILE.svg
      plot steps.csv columns (or energy = kinetic + potential) against time
  stiction fclib FILE... [--eps E] [--tol T] [--refine N] [--refine-tol R]
      solve FCLIB frictional-contact problems (HDF5) with SAP and print
      residuals; --refine adds proximal passes toward the rigid (R → 0) solution
  stiction bench [--n 10,20,...] [--walls walls,nowalls] [--linear sparse,dense,islands] [--steps S] [--out DIR]
      clutter scaling study (SAP Fig. 12): time and iterations per step
      against the number of bodies; writes DIR/bench.csv, bench.png, bench.svg
  stiction help
      show this text
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run dispatches a command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "list":
		return cmdList(stdout)
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "inspect":
		return cmdInspect(args[1:], stdout, stderr)
	case "fclib":
		return cmdFclib(args[1:], stdout, stderr)
	case "view":
		return cmdView(args[1:], stderr)
	case "export":
		return cmdExport(args[1:], stdout, stderr)
	case "plot":
		return cmdPlot(args[1:], stdout, stderr)
	case "bench":
		return cmdBench(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "stiction: unknown command %q\n%s", args[0], usage)
	return 2
}
