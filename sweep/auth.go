package sweep

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Credentials say how a client proves who it is to a NATS server and which
// certificate authorities it trusts for TLS. The zero value connects
// without either (a loopback sweep). User and password can also be given
// in the URL (nats://user:password@host:4222).
type Credentials struct {
	Nkey      string // an nkey seed (SU…): the embedded server's worker key, or a user of your own server
	Token     string // a token (authorization { token: … } of nats-server)
	CredsFile string // a user credentials file (JWT and seed: NATS accounts, nsc)
	CA        string // PEM file of the certificate authorities of the server's TLS certificate
}

// options returns the nats.go options of c.
func (c Credentials) options() ([]nats.Option, error) {
	var o []nats.Option
	if c.Nkey != "" {
		opt, err := nkeyOption(c.Nkey)
		if err != nil {
			return nil, err
		}
		o = append(o, opt)
	}
	if c.Token != "" {
		o = append(o, nats.Token(c.Token))
	}
	if c.CredsFile != "" {
		o = append(o, nats.UserCredentials(c.CredsFile))
	}
	if c.CA != "" {
		o = append(o, nats.RootCAs(c.CA))
	}
	return o, nil
}

// nkeyOption signs the server's nonce with the nkey of seed.
func nkeyOption(seed string) (nats.Option, error) {
	kp, err := nkeys.FromSeed([]byte(strings.TrimSpace(seed)))
	if err != nil {
		return nil, errors.New("sweep: the nkey is not an nkey seed (want SU… as printed by stiction sweep)") // never echo the secret
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("sweep: nkey: %w", err)
	}
	return nats.Nkey(pub, kp.Sign), nil
}

// ReadSecret returns the first line of a file holding a secret (an nkey
// seed or a token), or of the value of a .creds-like decorated file.
func ReadSecret(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("sweep: %w", err)
	}
	if kp, err := nkeys.ParseDecoratedNKey(data); err == nil {
		if seed, err := kp.Seed(); err == nil {
			return string(seed), nil
		}
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("sweep: %s is empty", path)
	}
	return line, nil
}

// IsLoopback reports whether the listen address host:port is reachable
// from this machine only (localhost, 127.0.0.0/8 or ::1).
func IsLoopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// Redact returns url without the password or token in its user part, for
// messages.
func Redact(rawURL string) string {
	var out []string
	for _, s := range strings.Split(rawURL, ",") {
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || u.User == nil {
			out = append(out, s)
			continue
		}
		u.User = url.User("REDACTED")
		out = append(out, u.String())
	}
	return strings.Join(out, ",")
}

// workerKeyFile is the file in the embedded server's store directory that
// keeps the workers' nkey seed, so that a sweep started again accepts the
// workers already running (mode 0600; it never goes into the results).
const workerKeyFile = "worker.nk"

// workerSeed returns the workers' nkey seed kept in storeDir, creating it
// if there is none.
func workerSeed(storeDir string) (string, error) {
	path := filepath.Join(storeDir, workerKeyFile)
	if data, err := os.ReadFile(path); err == nil {
		seed := strings.TrimSpace(string(data))
		if _, err := nkeys.FromSeed([]byte(seed)); err != nil {
			return "", fmt.Errorf("sweep: %s does not hold an nkey seed; remove it to get a new one", path)
		}
		return seed, nil
	}
	seed, err := newSeed()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(storeDir, 0o700); err != nil {
		return "", fmt.Errorf("sweep: %w", err)
	}
	if err := os.WriteFile(path, []byte(seed+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("sweep: %w", err)
	}
	return seed, nil
}

// newSeed generates a random user nkey and returns its seed.
func newSeed() (string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", fmt.Errorf("sweep: generate an nkey: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return "", fmt.Errorf("sweep: generate an nkey: %w", err)
	}
	return string(seed), nil
}

// nkeyUser returns the server's entry for the nkey of seed.
func nkeyUser(seed string, perms *server.Permissions) (*server.NkeyUser, error) {
	kp, err := nkeys.FromSeed([]byte(seed))
	if err != nil {
		return nil, errors.New("sweep: bad nkey seed")
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("sweep: nkey: %w", err)
	}
	return &server.NkeyUser{Nkey: pub, Permissions: perms}, nil
}

// sweepInbox is the reply-subject prefix of the sweep process, which
// workers may not subscribe to (results fetched by the sweep pass there).
const sweepInbox = "_STICTION_SWEEP_INBOX"

// WorkerPermissions are what a worker may do on the embedded server: read
// the list of sweeps, take jobs from the workers' consumers, acknowledge
// them and publish results. It cannot create, purge or delete streams,
// delete messages or consumers of the jobs, or read the results.
func WorkerPermissions() *server.Permissions {
	kv := "KV_" + sweepsBucket
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"$JS.API.INFO",
			"$JS.API.STREAM.INFO." + kv,
			"$JS.API.DIRECT.GET." + kv + ".>",
			"$JS.API.CONSUMER.CREATE." + kv + ".>",
			"$JS.API.CONSUMER.DELETE." + kv + ".>",
			"$JS.API.CONSUMER.MSG.NEXT." + kv + ".>",
			"$JS.FC." + kv + ".>",
			"$JS.API.CONSUMER.INFO." + jobsStream + ".*",
			"$JS.API.CONSUMER.MSG.NEXT." + jobsStream + ".*",
			"$JS.ACK." + jobsStream + ".>",
			"stiction.results.*",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
	}
}
