package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
)

// ErrorKind says what kind of failure a fetch met. Unlike the error value, the kind
// survives a Store (bbolt and Redis keep entries as JSON), so that callers can still
// tell a timeout from a DNS failure or a redirect loop in an entry another process
// wrote.
type ErrorKind uint8

const (
	// KindNone: no error.
	KindNone ErrorKind = iota
	// KindRefused: the client's dialer refused to connect to the address (a guard
	// against private addresses, see Config.DialContext). Such fetches are never cached
	// or stored, so this kind is only seen in process.
	KindRefused
	// KindDNS: the host name could not be resolved.
	KindDNS
	// KindTimeout: the connect timeout or the whole-fetch timeout passed.
	KindTimeout
	// KindConnect: the connection could not be made, or broke (refused, reset).
	KindConnect
	// KindTLS: the TLS handshake failed (certificate, protocol).
	KindTLS
	// KindResponse: the response was not valid HTTP, or its body could not be read
	// or decoded (broken chunking, corrupt gzip, unknown Content-Encoding).
	KindResponse
	// KindTooManyRedirects: the redirect chain went on past the policy's MaxRedirects,
	// or looped back to a URL of the chain (read as 404).
	KindTooManyRedirects
	// KindBadRedirect: a redirect could not be followed (no Location, a target that
	// is not http or https); read as 404.
	KindBadRedirect
	// KindFTP: the FTP server answered with an error reply (its code is the Status).
	KindFTP
	// KindOther: anything else.
	KindOther
)

var kindNames = [...]string{
	KindNone: "", KindRefused: "refused", KindDNS: "dns", KindTimeout: "timeout", KindConnect: "connect",
	KindTLS: "tls", KindResponse: "response", KindTooManyRedirects: "too-many-redirects",
	KindBadRedirect: "bad-redirect", KindFTP: "ftp", KindOther: "other",
}

func (k ErrorKind) String() string {
	if int(k) < len(kindNames) {
		if k == KindNone {
			return "none"
		}
		return kindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", uint8(k))
}

// MarshalText writes the kind's name ("" for KindNone), as stores keep it.
func (k ErrorKind) MarshalText() ([]byte, error) {
	if int(k) < len(kindNames) {
		return []byte(kindNames[k]), nil
	}
	return nil, fmt.Errorf("unknown error kind %d", uint8(k))
}

// UnmarshalText reads a kind's name. An unknown name (from a newer writer) reads as
// KindOther rather than failing the whole entry.
func (k *ErrorKind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = ErrorKind(i)
			return nil
		}
	}
	*k = KindOther
	return nil
}

// Error is the Err of every Result whose latest fetch failed or was not a plain
// answer. In the process that made the fetch it wraps the original error (so
// errors.Is and errors.As reach, say, the dialer's own error type); read back from a
// store it has only the kind and the text.
type Error struct {
	Kind ErrorKind
	Text string
	err  error
}

func (e *Error) Error() string { return e.Text }

// Unwrap returns the original error, nil when the entry came from a store.
func (e *Error) Unwrap() error { return e.err }

// Is makes errors.Is(err, ErrTooManyRedirects) and errors.Is(err,
// os.ErrDeadlineExceeded) hold by kind, also for errors read back from a store.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrTooManyRedirects:
		return e.Kind == KindTooManyRedirects
	case os.ErrDeadlineExceeded:
		return e.Kind == KindTimeout
	}
	return false
}

// ErrTooManyRedirects is the Err of a fetch whose redirect chain went on past the
// policy's MaxRedirects hops, or looped; such a fetch is classified as a 404.
var ErrTooManyRedirects = errors.New("too many redirects")

// refusal is how a dialer says it refused an address on purpose (rather than
// failing to connect): its error, or one it wraps, has a Refused method returning
// true. internal/netguard's RefusedError has one.
type refusal interface{ Refused() bool }

// isRefusal reports whether err is a dialer's deliberate refusal.
func isRefusal(err error) bool {
	var r refusal
	return errors.As(err, &r) && r.Refused()
}

// errKind returns the kind of a Result's Err: KindNone for nil.
func errKind(err error) ErrorKind {
	if err == nil {
		return KindNone
	}
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Kind
	}
	return KindOther
}

// kindOf classifies a fetch error that the fetch code did not classify itself.
func kindOf(err error) ErrorKind {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	var netErr net.Error
	switch {
	case err == nil:
		return KindNone
	case isRefusal(err):
		return KindRefused
	case errors.Is(err, ErrTooManyRedirects):
		return KindTooManyRedirects
	case errors.As(err, &dnsErr):
		if dnsErr.IsTimeout {
			return KindTimeout
		}
		return KindDNS
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return KindTimeout
	case errors.As(err, &certErr), errors.As(err, &recErr), errors.As(err, &alert),
		errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalid):
		return KindTLS
	case errors.As(err, &opErr):
		return KindConnect
	}
	return KindOther
}
