package serve

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorobots/robots/internal/testenv"
)

// httpsGet gets path from s over TLS, trusting pool, on a new connection, and returns
// the status, the protocol and the serial number of the certificate served.
func httpsGet(t *testing.T, s *Server, pool *x509.CertPool, path string) (int, string, int64) {
	t.Helper()
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get("https://" + s.Addr() + path)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Proto, resp.TLS.PeerCertificates[0].SerialNumber.Int64()
}

// TestTLS: with a certificate and key the server answers HTTPS (HTTP/2) and nothing
// else, serves a renewed certificate once its files change, and keeps the one it
// has when the new files do not load.
func TestTLS(t *testing.T) {
	old := certCheckEvery
	certCheckEvery = 0 // every handshake looks at the files
	t.Cleanup(func() { certCheckEvery = old })
	dir := t.TempDir()
	certFile, keyFile, pool1 := testenv.WriteCert(t, dir, 1)
	s, _ := start(t, Config{TLSCertFile: certFile, TLSKeyFile: keyFile})

	if code, proto, serial := httpsGet(t, s, pool1, "/healthz"); code != 200 || proto != "HTTP/2.0" || serial != 1 {
		t.Errorf("GET /healthz over TLS: %d %s, certificate %d; want 200 HTTP/2.0, certificate 1", code, proto, serial)
	}
	resp, err := http.Get("http://" + s.Addr() + "/healthz")
	b := readBody(t, resp, err)
	if resp.StatusCode != 400 || !strings.Contains(string(b), "HTTPS") {
		t.Errorf("plain HTTP to the TLS server: %d %q; want 400 saying to use HTTPS", resp.StatusCode, b)
	}

	// A renewed certificate: written, then dated later than the first.
	_, _, pool2 := testenv.WriteCert(t, dir, 2)
	later := time.Now().Add(time.Minute)
	for _, f := range []string{certFile, keyFile} {
		if err := os.Chtimes(f, later, later); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, serial := httpsGet(t, s, pool2, "/healthz"); code != 200 || serial != 2 {
		t.Errorf("after renewal: %d, certificate %d; want 200, certificate 2", code, serial)
	}

	// A certificate that does not load: the renewed one is still served.
	if err := os.WriteFile(certFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	later = later.Add(time.Minute)
	os.Chtimes(certFile, later, later)
	if code, _, serial := httpsGet(t, s, pool2, "/healthz"); code != 200 || serial != 2 {
		t.Errorf("after a broken renewal: %d, certificate %d; want 200, certificate 2 still", code, serial)
	}
}

func TestTLSConfigErrors(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := testenv.WriteCert(t, dir, 1)
	missing := filepath.Join(dir, "missing.pem")
	for _, tc := range []struct {
		name, cert, key, want string
	}{
		{"certificate alone", certFile, "", "give both files or neither"},
		{"key alone", "", keyFile, "give both files or neither"},
		{"missing certificate", missing, keyFile, "missing.pem"},
		{"missing key", certFile, missing, "missing.pem"},
		{"key as certificate", keyFile, keyFile, "key.pem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Config{TLSCertFile: tc.cert, TLSKeyFile: tc.key})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want an error naming %q", err, tc.want)
			}
		})
	}
}
