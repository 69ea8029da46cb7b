package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"net/url"
	"sync"

	"github.com/jlaffaye/ftp"
)

// ftpAnonymousPassword is the password of the anonymous login; by custom it is an
// address to reach the crawler's operator, which this client does not know.
const ftpAnonymousPassword = "anonymous@"

// fetchFTP fetches robots.txt by anonymous login and RETR robots.txt (RFC 9309 §2.3).
// Permanent negative replies (5yz: no such file, anonymous login refused) read as a
// 404, transient ones (4yz) as a 503; a transfer that completes, as a 200.
func (c *Client) fetchFTP(ctx context.Context, robotsURL string) *fetched {
	f := &fetched{hops: []Hop{{URL: robotsURL}}}
	u, err := url.Parse(robotsURL)
	if err != nil {
		f.failed, f.err = true, err
		return f
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "21")
	}

	// Every connection, control and data, goes through the client's dialer and is
	// closed when the fetch's context ends, so that a hanging server cannot outlast
	// the fetch timeout.
	var mu sync.Mutex
	var conns []net.Conn
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}()
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	defer stop()
	dial := func(network, address string) (net.Conn, error) {
		conn, err := c.dialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok {
			conn.SetDeadline(dl)
		}
		mu.Lock()
		conns = append(conns, conn)
		f.addrs = append(f.addrs, conn.RemoteAddr().String())
		mu.Unlock()
		return conn, nil
	}

	sc, err := ftp.Dial(addr, ftp.DialWithDialFunc(dial))
	if err != nil {
		return ftpFailure(f, err)
	}
	if err := sc.Login("anonymous", ftpAnonymousPassword); err != nil {
		return ftpFailure(f, err)
	}
	resp, err := sc.Retr("robots.txt")
	if err != nil {
		return ftpFailure(f, err)
	}
	f.body, f.bytesRead, f.wireBytes, f.truncated, err = readBody(resp, "", c.cfg.MaxBytes, -1)
	if err != nil {
		resp.Close()
		f.failed, f.err, f.kind = true, fmt.Errorf("reading %s: %w", robotsURL, err), protocolKind(err)
		return f
	}
	if f.truncated {
		// The rest is not wanted: closing the data connection early makes the
		// server answer 426, which is no failure of the fetch.
		resp.Close()
		f.status = ftp.StatusClosingDataConnection
	} else if err := resp.Close(); err != nil {
		return ftpFailure(f, err)
	} else {
		f.status = ftp.StatusClosingDataConnection
	}
	sc.Quit()
	f.hops[0].Status = f.status
	f.classifyAs = 200
	return f
}

func ftpFailure(f *fetched, err error) *fetched {
	var te *textproto.Error
	if errors.As(err, &te) {
		f.status, f.hops[0].Status = te.Code, te.Code
		f.err, f.kind = fmt.Errorf("ftp: %d %s", te.Code, te.Msg), KindFTP
		switch {
		case te.Code >= 500 && te.Code <= 599:
			f.classifyAs = 404
			return f
		case te.Code >= 400 && te.Code <= 499:
			f.classifyAs = 503
			return f
		}
	}
	f.failed, f.err, f.kind = true, fmt.Errorf("ftp: %w", err), protocolKind(err)
	return f
}
