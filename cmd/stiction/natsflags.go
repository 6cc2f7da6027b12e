package main

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/stiction-sim/stiction/sweep"
)

// Environment variables that give a NATS credential when its flag is not
// set (so that the secret is not on the command line, where other users of
// the machine can see it).
const (
	envNkey  = "STICTION_NATS_NKEY"
	envToken = "STICTION_NATS_TOKEN"
	envCreds = "STICTION_NATS_CREDS"
	envCA    = "STICTION_NATS_CA"
)

// natsAuth holds the credential flags of a NATS client (stiction worker,
// and stiction sweep --nats).
type natsAuth struct {
	nkey, nkeyFile, token, tokenFile, creds, ca string
}

// register adds the flags to fs.
func (a *natsAuth) register(fs *flag.FlagSet) {
	fs.StringVar(&a.nkey, "nkey", "", "nkey seed to authenticate with (default $"+envNkey+"; prefer the variable or --nkey-file: other users can see arguments)")
	fs.StringVar(&a.nkeyFile, "nkey-file", "", "file holding the nkey seed (as printed by stiction sweep)")
	fs.StringVar(&a.token, "token", "", "NATS token of your own server (default $"+envToken+")")
	fs.StringVar(&a.tokenFile, "token-file", "", "file holding the NATS token")
	fs.StringVar(&a.creds, "creds", "", "NATS user credentials file (JWT and seed, NATS accounts; default $"+envCreds+")")
	fs.StringVar(&a.ca, "tls-ca", "", "PEM file of the CA that signed the server's TLS certificate (default $"+envCA+")")
}

// credentials resolves the flags, files and environment variables: a flag
// first, then its file, then its variable.
func (a *natsAuth) credentials() (sweep.Credentials, error) {
	pick := func(val, file, env string) (string, error) {
		switch {
		case val != "":
			return val, nil
		case file != "":
			return sweep.ReadSecret(file)
		}
		return os.Getenv(env), nil
	}
	var c sweep.Credentials
	var err error
	if c.Nkey, err = pick(a.nkey, a.nkeyFile, envNkey); err != nil {
		return c, err
	}
	if c.Token, err = pick(a.token, a.tokenFile, envToken); err != nil {
		return c, err
	}
	c.CredsFile, _ = pick(a.creds, "", envCreds)
	c.CA, _ = pick(a.ca, "", envCA)
	return c, nil
}

// workerCommand is the command line with which a worker joins the
// embedded server q, listening on listen: with the nkey in the
// environment when the secret may be shown (a terminal), else naming the
// key file, which must be copied to the worker's machine.
func workerCommand(q *sweep.Queue, listen, store string, showSecret bool, extra string) string {
	u := advertised(q.URL, listen)
	if q.WorkerNkey == "" {
		return "stiction worker --nats " + u + extra
	}
	if showSecret {
		return envNkey + "=" + q.WorkerNkey + " stiction worker --nats " + u + extra
	}
	return fmt.Sprintf("stiction worker --nats %s --nkey-file %s%s (copy that file to the workers' machines; it is a secret)",
		u, filepath.Join(store, "worker.nk"), extra)
}

// advertised replaces an unspecified listen host (0.0.0.0, ::) in the
// server's URL by this machine's host name.
func advertised(serverURL, listen string) string {
	u, err := url.Parse(serverURL)
	if err != nil {
		return serverURL
	}
	host, _, _ := net.SplitHostPort(listen)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		if name, err := os.Hostname(); err == nil && name != "" {
			u.Host = net.JoinHostPort(name, u.Port())
		}
	}
	return strings.TrimSuffix(u.String(), "/")
}
