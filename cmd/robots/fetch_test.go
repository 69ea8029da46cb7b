package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// hangLimit bounds how long a "hang" site holds a request, so that scripts stop by
// themselves even if a client never gives up.
const hangLimit = 10 * time.Second

// cmdHTTPSite starts a web site on loopback for the rest of the script and sets the
// environment variable VAR to its URL (http://127.0.0.1:PORT). Its robots.txt:
//
//	httpsite VAR file FILE [NAME=VALUE...]  FILE from $WORK, 200, with those headers
//	httpsite VAR gzip FILE                  FILE gzip-compressed
//	httpsite VAR status CODE                CODE and an empty body
//	httpsite VAR redirect N FILE            N redirects (/r1 … /rN), then FILE
//	httpsite VAR to URL                     a redirect to URL
//	httpsite VAR hang                       no answer (for at most hangLimit)
//	httpsite VAR agents FILE TOKEN=X...     FILE, but to a User-Agent holding TOKEN
//	                                        X: a file from $WORK, or a status code
//
// Every other path answers 200 "page".
func cmdHTTPSite(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! httpsite")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: httpsite VAR MODE [ARGS]")
	}
	name, mode, rest := args[0], args[1], args[2:]
	read := func(file string) []byte {
		b, err := os.ReadFile(ts.MkAbs(file))
		ts.Check(err)
		return b
	}
	need := func(n int) {
		if len(rest) < n {
			ts.Fatalf("httpsite %s: want %d arguments", mode, n)
		}
	}
	var robots http.HandlerFunc
	switch mode {
	case "file":
		need(1)
		body, headers := read(rest[0]), rest[1:]
		robots = func(w http.ResponseWriter, r *http.Request) {
			for _, h := range headers {
				k, v, _ := bytes.Cut([]byte(h), []byte("="))
				w.Header().Set(string(k), string(v))
			}
			w.Write(body)
		}
	case "gzip":
		need(1)
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(read(rest[0]))
		zw.Close()
		robots = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(buf.Bytes())
		}
	case "status":
		need(1)
		code, err := strconv.Atoi(rest[0])
		ts.Check(err)
		robots = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
	case "redirect":
		need(2)
		n, err := strconv.Atoi(rest[0])
		ts.Check(err)
		body := read(rest[1])
		robots = func(w http.ResponseWriter, r *http.Request) {
			step := 0
			if r.URL.Path != "/robots.txt" {
				fmt.Sscanf(r.URL.Path, "/r%d", &step)
			}
			if step < n {
				http.Redirect(w, r, fmt.Sprintf("/r%d", step+1), http.StatusMovedPermanently)
				return
			}
			w.Write(body)
		}
	case "to":
		need(1)
		robots = func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, rest[0], http.StatusFound) }
	case "agents":
		need(1)
		body := read(rest[0])
		type answer struct {
			token  string
			status int
			body   []byte
		}
		var answers []answer
		for _, a := range rest[1:] {
			tok, x, _ := strings.Cut(a, "=")
			if code, err := strconv.Atoi(x); err == nil {
				answers = append(answers, answer{token: tok, status: code})
			} else {
				answers = append(answers, answer{token: tok, status: 200, body: read(x)})
			}
		}
		robots = func(w http.ResponseWriter, r *http.Request) {
			for _, a := range answers {
				if strings.Contains(r.Header.Get("User-Agent"), a.token) {
					w.WriteHeader(a.status)
					w.Write(a.body)
					return
				}
			}
			w.Write(body)
		}
	case "hang":
		robots = func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(hangLimit):
			}
		}
	default:
		ts.Fatalf("httpsite: unknown mode %q", mode)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" || (mode == "redirect" && len(r.URL.Path) > 2 && r.URL.Path[:2] == "/r") {
			robots(w, r)
			return
		}
		w.Write([]byte("page"))
	}))
	ts.Defer(srv.Close)
	ts.Setenv(name, srv.URL)
	ts.Setenv(name+"_HOST", srv.Listener.Addr().String()) // as a person types it: 127.0.0.1:PORT
}
