package sweep_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/sweep"
)

// writePEM writes one PEM block to dir/name and returns the path.
func writePEM(t *testing.T, dir, name, typ string, der []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// newCA makes a certificate authority; with a server, it also signs a
// certificate for 127.0.0.1 and returns its files.
func newCA(t *testing.T, dir, name string) (caFile, certFile, keyFile string) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name + " CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return writePEM(t, dir, name+"-ca.pem", "CERTIFICATE", caDER),
		writePEM(t, dir, name+"-cert.pem", "CERTIFICATE", der),
		writePEM(t, dir, name+"-key.pem", "PRIVATE KEY", kder)
}

// TestTLS serves a sweep with TLS on 0.0.0.0 (so with the workers' key
// too): a worker trusting the server's CA completes it, with rows
// identical to the jobs run alone; one trusting another CA, and a client
// speaking plain TCP, are refused. A sweep process reaches a TLS server
// as an external one (sweep --nats --tls-ca) with the CA only.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, cert, key := newCA(t, dir, "good")
	wrongCA, _, _ := newCA(t, dir, "wrong")
	q, err := sweep.Serve(sweep.ServerOptions{Store: filepath.Join(dir, "nats"), Listen: "0.0.0.0:0", TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	u, _ := url.Parse(q.URL)
	if u.Scheme != "tls" {
		t.Errorf("server URL %s, want tls://", q.URL)
	}
	addr := "127.0.0.1:" + u.Port()
	loop := "tls://" + addr

	if w, err := sweep.Join(loop, sweep.Credentials{Nkey: q.WorkerNkey, CA: wrongCA}); err == nil {
		w.Close()
		t.Error("a worker trusting another CA joined")
	} else if !strings.Contains(err.Error(), "certificate") {
		t.Errorf("wrong CA: %v", err)
	}
	// Plain TCP: the server closes the connection instead of answering PING.
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	info, _ := r.ReadString('\n')
	c.Write([]byte("CONNECT {\"verbose\":false}\r\nPING\r\n"))
	reply, rerr := r.ReadString('\n')
	c.Close()
	if !strings.Contains(info, `"tls_required":true`) || strings.Contains(reply, "PONG") || rerr == nil && !strings.HasPrefix(reply, "-ERR") {
		t.Errorf("plain TCP: INFO %q, reply %q (%v)", info, reply, rerr)
	}

	// sweep --nats tls://… --tls-ca: the sweep process connects to a
	// server of its own with TLS (here a second one, on loopback without
	// keys) and sets up the streams.
	q2, err := sweep.Serve(sweep.ServerOptions{Store: filepath.Join(dir, "nats2"), Listen: "127.0.0.1:0", TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	defer q2.Close()
	if ext, err := sweep.Connect(q2.URL, sweep.Credentials{CA: ca}); err != nil {
		t.Errorf("--nats with --tls-ca: %v", err)
	} else {
		ext.Close()
	}
	if ext, err := sweep.Connect(q2.URL, sweep.Credentials{}); err == nil {
		ext.Close()
		t.Error("--nats without --tls-ca trusted the test CA")
	}

	w, err := sweep.Join(loop, sweep.Credentials{Nkey: q.WorkerNkey, CA: ca})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p := plan(t, spec20)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { sweep.Work(ctx, w, sweep.WorkerOptions{}) })
	rep, err := sweep.Run(context.Background(), p, q, sweep.Options{Out: dir})
	stop()
	wg.Wait()
	if err != nil || rep.Done != len(p.Jobs) || rep.Failed != 0 {
		t.Fatalf("report %+v: %v", rep, err)
	}
	if got, want := tableRows(t, dir, p.Columns()), aloneRows(t, p); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatal("rows differ from the jobs run alone")
	}
}
