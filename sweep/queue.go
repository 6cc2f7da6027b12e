package sweep

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
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
	srv *server.Server
	nc  *nats.Conn
	js  jetstream.JetStream
}

// StartEmbedded starts a NATS server with JetStream in this process, its
// store in storeDir, listening on listen ("host:port"; port 0 picks a free
// one), and connects to it. Every write to the store is synced to disk.
func StartEmbedded(storeDir, listen string) (*Queue, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("sweep: --listen %q: %w", listen, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535 {
		return nil, fmt.Errorf("sweep: --listen %q: bad port", listen)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	opts := &server.Options{
		ServerName: "stiction-sweep", Host: host, Port: p,
		JetStream: true, StoreDir: storeDir,
		NoSigs: true, NoLog: true, MaxPayload: 8 << 20,
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
	q, err := Connect(srv.ClientURL())
	if err != nil {
		srv.Shutdown()
		return nil, err
	}
	q.srv = srv
	return q, nil
}

// Connect connects to the NATS server at url (which must have JetStream
// enabled).
func Connect(url string) (*Queue, error) {
	nc, err := nats.Connect(url, nats.Name("stiction"), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("sweep: connect to NATS at %s: %w", url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("sweep: JetStream at %s: %w", url, err)
	}
	q := &Queue{URL: url, nc: nc, js: js}
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
		return fmt.Errorf("sweep: set up JetStream at %s (is JetStream enabled, nats-server -js?): %w", q.URL, err)
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
	if err != nil {
		return nil, err
	}
	keys, err := kv.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	return keys, err
}
