package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

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
	ts.Setenv(name+"_HOST", srv.Listener.Addr().String()) // as a person types it: 127.0.0.1:PORT
	setSite(ts, name, url)
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

// cmdExpand writes each FILE again with the URLs of the sites httpdir started in
// place of their {{NAME}}: a robots.txt kept outside a site (an earlier version)
// that lists the site's sitemaps.
//
//	expand FILE...
func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: expand FILE...")
	}
	for _, f := range args {
		b, err := os.ReadFile(ts.MkAbs(f))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(f), expandSites(ts, b), 0o644))
	}
}

// sites holds the URLs of the sites each running script started with httpdir, by
// name. The sites' handlers read them in their own goroutines, where the script's
// environment may not be read: a request still being served when the script goes on
// would race with its next Setenv (httpsite, httpdir), as the race detector saw under load.
var sites struct {
	sync.Mutex
	m map[*testscript.TestScript]map[string]string
}

// setSite records that the script started the site name at url.
func setSite(ts *testscript.TestScript, name, url string) {
	sites.Lock()
	defer sites.Unlock()
	if sites.m == nil {
		sites.m = make(map[*testscript.TestScript]map[string]string)
	}
	if sites.m[ts] == nil {
		sites.m[ts] = make(map[string]string)
		ts.Defer(func() {
			sites.Lock()
			defer sites.Unlock()
			delete(sites.m, ts)
		})
	}
	sites.m[ts][name] = url
}

// expandSites replaces {{VAR}} by the URL of the site the script started as VAR
// with httpdir; an unknown VAR by nothing.
func expandSites(ts *testscript.TestScript, b []byte) []byte {
	sites.Lock()
	defer sites.Unlock()
	for {
		i := bytes.Index(b, []byte("{{"))
		if i < 0 {
			return b
		}
		j := bytes.Index(b[i:], []byte("}}"))
		if j < 0 {
			return b
		}
		v := sites.m[ts][string(b[i+2:i+j])]
		b = append(b[:i:i], append([]byte(v), b[i+j+2:]...)...)
	}
}
