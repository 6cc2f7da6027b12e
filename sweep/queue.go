package sweep

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Stream, consumer and bucket names on the NATS server. Jobs of sweep ID
// are published on stiction.jobs.ID to a work-queue stream, results on
// stiction.results.ID; the key-value bucket lists the sweeps running.
const (
	jobsStream    = "STICTION_JOBS"
	resultsStream = "STICTION_RESULTS"
	sweepsBucket  = "stiction_sweeps"
	// resultsDedup is the window in which a result published twice (a job
	// redelivered after its result was stored but before its ack) is
	// stored once.
	resultsDedup = 24 * time.Hour
)

func jobsSubject(id string) string    { return "stiction.jobs." + id }
func resultsSubject(id string) string { return "stiction.results." + id }
func workersConsumer(id string) string {
	return "w-" + id
}
func collectorConsumer(id string) string { return "c-" + id }

// Queue is a connection to a NATS server with JetStream, embedded in this
// process or external.
type Queue struct {
	URL string // the server's client URL
	// WorkerNkey is the nkey seed workers need to join the embedded
	// server, "" if it requires none (loopback). It is a secret.
	WorkerNkey string
	srv        *server.Server
	nc         *nats.Conn
	js         jetstream.JetStream
}

// MaxJobBytes bounds a job message (the scene text and the files it
// carries): the embedded server's maximum payload, and what a worker
// accepts from any server.
const MaxJobBytes = 8 << 20

// MaxResultBytes bounds a result message, as a worker sends it and the
// sweep accepts it.
const MaxResultBytes = 1 << 20

// ServerOptions configure an embedded NATS server (Serve).
type ServerOptions struct {
	Store  string // JetStream store directory
	Listen string // host:port; port 0 picks a free one
	// Auth requires credentials even on a loopback address; they are
	// always required on any other address. Workers authenticate with an
	// nkey kept in Store (generated on first use), with the permissions of
	// WorkerPermissions; the sweep process has a key of its own.
	Auth bool
	// TLSCert and TLSKey, if set, are the PEM files of the server's
	// certificate and key: clients must then use TLS (the sweep process's
	// own connection, in process, needs none).
	TLSCert, TLSKey string
}

// StartEmbedded starts a NATS server with JetStream in this process, its
// store in storeDir, listening on listen ("host:port"; port 0 picks a free
// one), and connects to it: Serve with default options.
func StartEmbedded(storeDir, listen string) (*Queue, error) {
	return Serve(ServerOptions{Store: storeDir, Listen: listen})
}

// Serve starts a NATS server with JetStream in this process and connects
// to it (in process). Every write to the store is synced to disk. Off
// loopback (or with o.Auth) clients must authenticate: q.WorkerNkey is
// the workers' key.
func Serve(o ServerOptions) (*Queue, error) {
	opts, err := serverOptions(o)
	if err != nil {
		return nil, err
	}
	var workerSeed, sweepSeed string
	if o.Auth || !IsLoopback(o.Listen) {
		if workerSeed, sweepSeed, err = authorize(opts, o.Store); err != nil {
			return nil, err
		}
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("sweep: embedded NATS server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, errors.New("sweep: embedded NATS server did not start within 10 s")
	}
	// In process: no network, so no TLS (the scheme would ask for it).
	inproc := strings.Replace(srv.ClientURL(), "tls://", "nats://", 1)
	q, err := connect(inproc, Credentials{Nkey: sweepSeed}, true, nats.InProcessServer(srv))
	if err != nil {
		srv.Shutdown()
		return nil, err
	}
	q.URL, q.srv, q.WorkerNkey = srv.ClientURL(), srv, workerSeed
	return q, nil
}

// serverOptions returns the embedded server's options without
// authentication.
func serverOptions(o ServerOptions) (*server.Options, error) {
	host, port, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("sweep: --listen %q: %w", o.Listen, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535 {
		return nil, fmt.Errorf("sweep: --listen %q: bad port", o.Listen)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	opts := &server.Options{
		ServerName: "stiction-sweep", Host: host, Port: p,
		JetStream: true, StoreDir: o.Store,
		NoSigs: true, NoLog: true, MaxPayload: MaxJobBytes,
	}
	if o.TLSCert != "" || o.TLSKey != "" {
		if o.TLSCert == "" || o.TLSKey == "" {
			return nil, errors.New("sweep: --tls-cert and --tls-key go together")
		}
		cfg, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.TLSCert, KeyFile: o.TLSKey})
		if err != nil {
			return nil, fmt.Errorf("sweep: TLS: %w", err)
		}
		opts.TLSConfig, opts.TLS, opts.TLSTimeout = cfg, true, 5
	}
	return opts, nil
}

// authorize makes opts require an nkey: the workers' (kept in store) with
// WorkerPermissions, and a new one for the sweep process with every
// permission. It returns both seeds.
func authorize(opts *server.Options, store string) (worker, sweep string, err error) {
	if worker, err = workerSeed(store); err != nil {
		return "", "", err
	}
	if sweep, err = newSeed(); err != nil {
		return "", "", err
	}
	wu, err := nkeyUser(worker, WorkerPermissions())
	if err != nil {
		return "", "", err
	}
	su, err := nkeyUser(sweep, nil)
	if err != nil {
		return "", "", err
	}
	opts.Nkeys = []*server.NkeyUser{wu, su}
	return worker, sweep, nil
}

// Connect connects the sweep process to the NATS server at url (which
// must have JetStream enabled) and creates the streams and the bucket if
// they do not exist.
func Connect(url string, c Credentials) (*Queue, error) {
	return connect(url, c, true)
}

// Join connects a worker to the NATS server at url; unlike Connect it
// creates nothing (a worker's credentials need not allow it).
func Join(url string, c Credentials) (*Queue, error) {
	return connect(url, c, false)
}

// connect connects to url; setup creates the streams.
func connect(url string, c Credentials, setup bool, extra ...nats.Option) (*Queue, error) {
	opts, err := c.options()
	if err != nil {
		return nil, err
	}
	opts = append(opts, nats.Name("stiction"), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond))
	if setup {
		opts = append(opts, nats.CustomInboxPrefix(sweepInbox))
	}
	nc, err := nats.Connect(url, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("sweep: connect to NATS at %s: %w", Redact(url), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("sweep: JetStream at %s: %w", Redact(url), err)
	}
	q := &Queue{URL: url, nc: nc, js: js}
	if !setup {
		return q, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := q.setup(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	return q, nil
}

// setup creates the streams and the bucket if they do not exist.
func (q *Queue) setup(ctx context.Context) error {
	_, err := q.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: jobsStream, Subjects: []string{"stiction.jobs.>"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
	})
	if err == nil {
		_, err = q.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: resultsStream, Subjects: []string{"stiction.results.>"},
			Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage, Duplicates: resultsDedup,
		})
	}
	if err == nil {
		_, err = q.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: sweepsBucket, Storage: jetstream.FileStorage})
	}
	if err != nil {
		return fmt.Errorf("sweep: set up JetStream at %s (is JetStream enabled, nats-server -js?): %w", Redact(q.URL), err)
	}
	return nil
}

// Close closes the connection and stops the embedded server, if any.
func (q *Queue) Close() {
	q.nc.Drain()
	q.nc.Close()
	if q.srv != nil {
		q.srv.Shutdown()
		q.srv.WaitForShutdown()
	}
}

// sweeps returns the IDs of the sweeps running.
func (q *Queue) sweeps(ctx context.Context) ([]string, error) {
	kv, err := q.js.KeyValue(ctx, sweepsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, nil // no sweep has run on this server yet
	}
	if err != nil {
		return nil, err
	}
	// ListKeys rather than Keys: Keys waits for the watcher's end-of-listing
	// marker without looking at ctx, so a worker told to stop could hang
	// there for good (seen once in TestHostileJobs under load).
	lister, err := kv.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	defer lister.Stop()
	var keys []string
	for k := range lister.Keys() {
		keys = append(keys, k)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}
