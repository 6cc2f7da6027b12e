// Command stiction runs Stiction simulations from scene files or embedded
// scenes.
//
//	stiction list
//	stiction models
//	stiction run SCENE_OR_FILE [--dt S] [--duration S] [--scheme NAME] [--solver NAME] [--set path=value]... [--out DIR] [--quiet] [--profile]
//	stiction resume CHECKPOINT [--duration S] [--out DIR]
//	stiction sweep SPEC.yaml [--out DIR] [--local-workers N] [--nats URL]
//	stiction worker --nats URL
//	stiction inspect MODEL_OR_SCENE [--floating] [--keyframe NAME] [--package-path DIR]...
//	stiction fclib FILE... [--solver NAME] [--eps E] [--tol T] [--refine N]
//	stiction view RUN_DIR [--port N] [--addr A]
//	stiction view MODEL_OR_SCENE --live [--rate F] [--paused] [--record-dir DIR] [--port N] [--addr A]
//	stiction export RUN_DIR --gltf OUT.glb
//	stiction plot RUN_DIR --y COL,... --out FILE.png|.svg
//	stiction bench [--peers] [--solver NAME] [--out DIR]
//	stiction validate [--quick] [--out DIR]
//
// Run "stiction help" for details. The exit status is 0 on success, 1 when a
// step failed (a contact solve that did not converge) or a run stopped early
// (diverged, interrupted), and 2 on bad input.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  stiction list
      list the embedded scenes
  stiction models
      list the embedded robot models (embedded://... names for run, inspect and a scene's
      include): format, bodies, degrees of freedom, actuators, source and licence
  stiction run SCENE_OR_FILE [--dt S] [--duration S] [--scheme NAME] [--solver NAME] [--set path=value]... [--out DIR]
                             [--format csv|parquet] [--workers N] [--checkpoint-every S]
                             [--max-energy-growth F] [--view [--port N] [--addr A]] [--quiet] [--profile]
                             [--ground] [--floating] [--self-collision] [--keyframe NAME]
                             [--package-path DIR]... [--model-path DIR]... [--warnings]
      run an embedded scene, a scene file or a robot model (MODEL.xml (MJCF), MODEL.urdf,
      MODEL.sdf); --scheme picks the integrator (explicit-euler, symplectic-euler,
      implicit-euler, midpoint, trapezoidal, bridson-marino, mujoco-euler, rk4,
      mujoco-implicit; an MJCF model's <option integrator> picks mujoco-euler, rk4 or
      mujoco-implicit, a URDF with damped joints
      mujoco-euler); --solver picks the contact solver
      (sap, pgs, ipm, drumwright; docs/SOLVERS.md); --set overrides any scene field (see docs/SCENES.md for the
      path syntax), --out writes summary.json, steps.csv, trajectory.csv and joints.csv to DIR
      (plus scene.json, contacts.csv and constraints.csv for the viewer; --format parquet writes
      .parquet files instead, docs/OUTPUT.md); --ground adds a floor, --floating frees a
      URDF/SDFormat root link, --self-collision lets a URDF robot's links collide with each
      other (not joined or welded ones, nor pairs overlapping at the start), --keyframe NAME starts from a keyframe, --package-path DIR and
      --model-path DIR find package:// and model:// files, --warnings lists import warnings
      (docs/MODELS.md); --workers N solves the
      islands of the contact graph on N workers (bit-identical for any N); --checkpoint-every S
      writes DIR/checkpoints/ every S simulated seconds; --max-energy-growth F stops the run as
      diverged when the kinetic energy grows F-fold (default 1e6; 0: off); --view [--port N]
      [--addr A] streams the run to the viewer while it goes. A physically invalid step
      (docs/OUTPUT.md) stops the run with status invalid. Ctrl-C stops the run, keeping
      complete files and a summary with status interrupted
  stiction resume CHECKPOINT [--duration S] [--out DIR] [--checkpoint-every S] [--quiet] [--profile]
      continue a run from a checkpoint, with its outputs (byte-identical to a run never stopped)
  stiction sweep SPEC.yaml [--out DIR] [--local-workers N] [--listen HOST:PORT] [--tls-cert F --tls-key F]
                 [--nats URL [--nkey-file F] [--creds F] [--tls-ca F]] [--quiet]
      run a parameter sweep (docs/SWEEPS.md) on an embedded NATS JetStream server (or the
      server at --nats); writes DIR/results.csv and results.parquet; run it again to continue.
      Off loopback the server requires a key and prints the worker command that carries it
  stiction worker --nats URL [--nkey-file F] [--token-file F] [--creds F] [--tls-ca F] [--out DIR] [--quiet]
      run jobs of the sweeps on the NATS server at URL, from any machine, until Ctrl-C;
      credentials also from $STICTION_NATS_NKEY, $STICTION_NATS_TOKEN, $STICTION_NATS_CREDS
  stiction inspect MODEL_OR_SCENE [--floating] [--keyframe NAME] [--package-path DIR]...
      print a model's bodies, joints, nq, nv, masses, inertias, M(q0) and
      bias forces at q0 as JSON
  stiction view RUN_DIR [--port N] [--addr A]
      serve a 3D playback of a run directory on http://127.0.0.1:PORT/
      (default port 8765; --addr to listen on another interface)
  stiction view MODEL_OR_SCENE --live [--rate F] [--paused] [--record-dir DIR] [--set path=value]...
      an interactive session: the simulation runs here at F× real time (0: as fast as it can)
      and the page pauses, steps, resets, perturbs, drives and records it (docs/VIEWER.md);
      off loopback the page needs the token printed at start. Also: run SCENE --view --live
  stiction export RUN_DIR --gltf OUT.glb
      write the bodies' meshes and their motion as a glTF 2.0 binary
  stiction plot RUN_DIR --y COL[,COL...] --out FILE.png|FILE.svg
      plot steps.csv columns (or energy = kinetic + potential) against time
  stiction plot SWEEP_DIR [--x PARAM] --y STAT[,STAT...] --out FILE.png|FILE.svg
      plot statistics of a sweep's table against a swept parameter
  stiction fclib FILE... [--solver NAME] [--eps E] [--tol T] [--refine N] [--refine-tol R]
      solve FCLIB frictional-contact problems (HDF5) with SAP (or --solver NAME) and print
      residuals; --refine adds proximal passes toward the rigid (R → 0) solution
  stiction bench [--n 10,20,...] [--walls walls,nowalls] [--layout grid|copies] [--linear sparse,dense,islands] [--solver NAME] [--steps S] [--out DIR]
      clutter scaling study (SAP Fig. 12): time and iterations per step
      against the number of bodies; writes DIR/bench.csv, bench.png, bench.svg
  stiction validate [--quick] [--out DIR] [--claim PREFIX]
      reproduce the papers' quantitative claims: print claim, source, expected, measured,
      tolerance and PASS/FAIL; --out writes DIR/VALIDATION.md with its plots; exit status 1
      if any row fails (docs/VALIDATION.md)
  stiction bench --peers [--peers-dir DIR] [--peer-workers N] [--out DIR]
      the peer scenes (clutter-40, clutter-160, stack-100-spheres) with the default
      settings: s/s, iterations, penetration, final speed, e_m beside the peers'
      figures; writes DIR/peers.csv
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
	case "models":
		return cmdModels(stdout, stderr)
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "sweep":
		return cmdSweep(args[1:], stdout, stderr)
	case "worker":
		return cmdWorker(args[1:], stdout, stderr)
	case "resume":
		return cmdResume(args[1:], stdout, stderr)
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
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "stiction: unknown command %q\n%s", args[0], usage)
	return 2
}
