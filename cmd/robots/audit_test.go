package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["httpdir"] = cmdHTTPDir
}

// cmdHTTPDir serves the files of a directory of $WORK on loopback for the rest of
// the script and sets VAR to the site's URL (http://127.0.0.1:PORT). In the files,
// {{VAR}} stands for the URL of the site that was started as VAR (this one or an
// earlier one); a file whose name ends in .gz is served gzip-compressed. Every other
// path is a 404.
//
//	httpdir VAR DIR
func cmdHTTPDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: httpdir VAR DIR")
	}
	name, dir := args[0], ts.MkAbs(args[1])
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String()
	ts.Setenv(name, url)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/"))))
		if err != nil || r.URL.Path == "/" {
			http.NotFound(w, r)
			return
		}
		b = expandSites(ts, b)
		if strings.HasSuffix(r.URL.Path, ".gz") {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(b)
			zw.Close()
			b = buf.Bytes()
		}
		w.Write(b)
	})
	srv.Start()
	ts.Defer(srv.Close)
}

// expandSites replaces {{VAR}} by the value of VAR for the variables the script set.
func expandSites(ts *testscript.TestScript, b []byte) []byte {
	for {
		i := bytes.Index(b, []byte("{{"))
		if i < 0 {
			return b
		}
		j := bytes.Index(b[i:], []byte("}}"))
		if j < 0 {
			return b
		}
		v := ts.Getenv(string(b[i+2 : i+j]))
		b = append(b[:i:i], append([]byte(v), b[i+j+2:]...)...)
	}
}

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1204, "1,204"}, {50000, "50,000"}, {1000000, "1,000,000"}, {-1204, "-1,204"}} {
		t.Run(tc.want, func(t *testing.T) {
			if got := thousands(tc.n); got != tc.want {
				t.Errorf("thousands(%d) = %q, want %q", tc.n, got, tc.want)
			}
		})
	}
}
