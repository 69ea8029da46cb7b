package serve

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certCheckEvery is how often, at most, a handshake looks whether the certificate's
// files have changed.
var certCheckEvery = time.Second

// certFiles serves the certificate chain and private key in two PEM files, read
// again when either file's modification time changes, so that a renewed certificate
// (certbot, cert-manager) is served without a restart. A reload that fails keeps
// the certificate served, and says why once per change of the files.
type certFiles struct {
	certFile, keyFile string
	log               *slog.Logger

	mu              sync.Mutex
	cert            *tls.Certificate
	certMod, keyMod time.Time // of the files last read, whether or not they loaded
	checked         time.Time
}

// loadCertFiles reads the certificate and key a first time.
func loadCertFiles(certFile, keyFile string, log *slog.Logger) (*certFiles, error) {
	c := &certFiles{certFile: certFile, keyFile: keyFile, log: log}
	certMod, keyMod, err := c.modTimes()
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("serve: TLS certificate %s, key %s: %w", certFile, keyFile, err)
	}
	c.cert, c.certMod, c.keyMod, c.checked = &cert, certMod, keyMod, time.Now()
	return c, nil
}

// modTimes returns the modification times of the two files.
func (c *certFiles) modTimes() (cert, key time.Time, err error) {
	ci, err := os.Stat(c.certFile)
	if err != nil {
		return cert, key, fmt.Errorf("serve: TLS certificate: %w", err)
	}
	ki, err := os.Stat(c.keyFile)
	if err != nil {
		return cert, key, fmt.Errorf("serve: TLS key: %w", err)
	}
	return ci.ModTime(), ki.ModTime(), nil
}

// get is tls.Config.GetCertificate.
func (c *certFiles) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := time.Now(); now.Sub(c.checked) >= certCheckEvery {
		c.checked = now
		c.reload()
	}
	return c.cert, nil
}

// reload reads the files again if they changed since last read.
func (c *certFiles) reload() {
	certMod, keyMod, err := c.modTimes()
	if err != nil || certMod.Equal(c.certMod) && keyMod.Equal(c.keyMod) {
		return // a file missing for a moment (being replaced): the next check sees it
	}
	c.certMod, c.keyMod = certMod, keyMod
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		c.log.Warn("TLS certificate not reloaded: serving the previous one", "cert", c.certFile, "key", c.keyFile, "err", err)
		return
	}
	c.cert = &cert
	c.log.Info("TLS certificate reloaded", "cert", c.certFile)
}

// tlsConfig is the server's TLS configuration: TLS 1.2 at least, HTTP/2 and
// HTTP/1.1, the certificate from the files.
func (c *certFiles) tlsConfig() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: c.get, NextProtos: []string{"h2", "http/1.1"}}
}
