package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/stiction-sim/stiction/sweep"
)

// cmdSweep runs a sweep spec on an embedded NATS server (or --nats).
func cmdSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		out, natsURL, listen string
		local                int
		tlsCert, tlsKey      string
		quiet, auth          bool
		creds                natsAuth
	)
	fs.StringVar(&out, "out", "", "output directory: results.csv, results.parquet, results.jsonl and the embedded server's store (default: the spec's name)")
	fs.StringVar(&natsURL, "nats", "", "use the NATS server (with JetStream) at this URL instead of an embedded one")
	fs.StringVar(&listen, "listen", "127.0.0.1:0", "address of the embedded NATS server (host:port; 0.0.0.0:4222 to let other machines join)")
	fs.IntVar(&local, "local-workers", runtime.NumCPU(), "workers in this process (0: only \"stiction worker\" processes run jobs)")
	fs.BoolVar(&quiet, "quiet", false, "no progress bar")
	fs.BoolVar(&auth, "auth", false, "require credentials on a loopback --listen too (always required on other addresses)")
	fs.StringVar(&tlsCert, "tls-cert", "", "PEM certificate of the embedded server: workers must use TLS (with --tls-key)")
	fs.StringVar(&tlsKey, "tls-key", "", "PEM key of --tls-cert")
	creds.register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "stiction sweep: want one spec file, got %d arguments\n%s", len(pos), usage)
		return 2
	}
	if local < 0 {
		fmt.Fprintf(stderr, "stiction sweep: --local-workers %d: want 0 or more\n", local)
		return 2
	}
	spec, err := sweep.ReadSpec(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	plan, err := spec.Expand()
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	if out == "" {
		out = spec.Name
	}
	store := filepath.Join(out, "nats")
	var q *sweep.Queue
	if natsURL != "" {
		var c sweep.Credentials
		if c, err = creds.credentials(); err == nil {
			q, err = sweep.Connect(natsURL, c)
		}
	} else {
		q, err = sweep.Serve(sweep.ServerOptions{Store: store, Listen: listen, Auth: auth, TLSCert: tlsCert, TLSKey: tlsKey})
	}
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	defer q.Close()
	fmt.Fprintf(stderr, "stiction: sweep %s: %d jobs, NATS at %s\n", plan.ID, len(plan.Jobs), sweep.Redact(q.URL))
	if natsURL == "" {
		fmt.Fprintf(stderr, "stiction: more workers can join with: %s%s\n", workerCommand(q, listen, store, isTerminal(stderr), tlsHint(tlsCert, creds.ca)), loopbackNote(listen))
	}
	o := sweep.Options{Out: out, LocalWorkers: local}
	if !quiet && isTerminal(stderr) {
		o.Progress = stderr
	}
	ctx, stop := interrupts()
	defer stop()
	rep, err := sweep.Run(ctx, plan, q, o)
	fmt.Fprintf(stdout, "sweep %s: %d jobs, %d run now, %d done before, %d failed, %d duplicate results ignored, %.3g s\n",
		plan.ID, rep.Jobs, rep.Done, rep.Skipped, rep.Failed, rep.Duplicates, rep.Elapsed.Seconds())
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "stiction: sweep interrupted with %d of %d jobs done; the table so far is in %s; run the same command again to continue\n",
				rep.Done+rep.Skipped, rep.Jobs, out)
		} else {
			fmt.Fprintf(stderr, "stiction: %v\n", err)
		}
		return 1
	}
	fmt.Fprintf(stdout, "results: %s, %s\n", filepath.Join(out, sweep.TableCSV), filepath.Join(out, sweep.TableParquet))
	return 0
}

// tlsHint is the --tls-ca argument of the printed worker command: the
// sweep's own --tls-ca if given, else a placeholder when the server has a
// certificate.
func tlsHint(cert, ca string) string {
	switch {
	case cert == "":
		return ""
	case ca != "":
		return " --tls-ca " + ca
	}
	return " --tls-ca CA.pem"
}

// loopbackNote says how to open the embedded server to other machines when
// it listens on a loopback address only.
func loopbackNote(listen string) string {
	host, _, err := net.SplitHostPort(listen)
	if ip := net.ParseIP(host); err == nil && (host == "localhost" || ip != nil && ip.IsLoopback()) {
		return " (this machine only; --listen 0.0.0.0:4222 lets other machines join, with a key)"
	}
	return ""
}

// cmdWorker runs the jobs of every sweep on a NATS server until Ctrl-C.
func cmdWorker(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var natsURL, out string
	var quiet bool
	var creds natsAuth
	creds.register(fs)
	fs.StringVar(&natsURL, "nats", "", "URL of the NATS server of the sweep (required), e.g. nats://host:4222")
	fs.StringVar(&out, "out", ".", "directory for the run directories of sweeps with keep_runs")
	fs.BoolVar(&quiet, "quiet", false, "no line per job")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 || natsURL == "" {
		fmt.Fprintf(stderr, "stiction worker: want --nats URL and no arguments\n%s", usage)
		return 2
	}
	c, err := creds.credentials()
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 2
	}
	q, err := sweep.Join(natsURL, c)
	if err != nil {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	defer q.Close()
	o := sweep.WorkerOptions{Out: out, OnJobRefused: func(id string, err error) {
		fmt.Fprintf(stderr, "stiction: refused a message on the queue of sweep %s: %v\n", id, err)
	}}
	if !quiet {
		o.OnJobDone = func(r sweep.Result) {
			msg := ""
			if r.Message != "" {
				msg = ": " + strings.SplitN(r.Message, "\n", 2)[0]
			}
			fmt.Fprintf(stderr, "job %d of %s: %s (%.3g s)%s\n", r.Index, r.Sweep, r.Status, r.WallS, msg)
		}
	}
	fmt.Fprintf(stderr, "stiction: worker on %s (Ctrl-C to stop)\n", sweep.Redact(natsURL))
	ctx, stop := interrupts()
	defer stop()
	if err := sweep.Work(ctx, q, o); err != nil && !errors.Is(err, ctx.Err()) {
		fmt.Fprintf(stderr, "stiction: %v\n", err)
		return 1
	}
	return 0
}
