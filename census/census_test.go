package census

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/gorobots/robots/lint"
)

// testCrawlers are the crawlers of the tests' rows: an AI training crawler, a
// search crawler, and a token the registry does not know.
var testCrawlers = func() []crawlers.Crawler {
	gpt, _ := crawlers.Lookup("GPTBot")
	g, _ := crawlers.Lookup("Googlebot")
	return []crawlers.Crawler{gpt, g, {Name: "ExampleBot"}}
}()

// want is what the rows of one robots.txt fetch say; access is per crawler of
// testCrawlers.
type want struct {
	url, outcome, effect string
	status, final        int32
	redirects            int32
	access               [3]string
	html, truncated, lic bool
	size                 int64
	usage, signal        string // GPTBot's
	lintHas              string
	errHas               string
}

// buildCases writes the WARC file of TestScan: each case of the access method
// beside the damage a real file may carry.
func buildCases(gz bool) (*warcFile, []want, int) {
	w := newWARC(gz)
	var wants []want
	add := func(x want) { wants = append(wants, x) }
	ua := func(s string) []byte { return []byte(s) }

	w.capture("https://a.example/robots.txt", 200, ua("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"), "Content-Type", "text/plain")
	add(want{url: "https://a.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"blocked", "partly", "partly"}, size: int64(len("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"))})

	// 4xx: no file, everything allowed (RFC 9309 §2.3.1.3), 403 included for Google.
	w.capture("https://b.example/robots.txt", 404, ua("<html>not found</html>"), "Content-Type", "text/html")
	add(want{url: "https://b.example/robots.txt", outcome: "unavailable", effect: "allow-all", status: 404, final: 404,
		access: [3]string{"open", "open", "open"}, size: 22})
	w.capture("https://b2.example/robots.txt", 403, nil)
	add(want{url: "https://b2.example/robots.txt", outcome: "unavailable", effect: "allow-all", status: 403, final: 403,
		access: [3]string{"open", "open", "open"}})

	// 5xx and 429: unreachable, everything disallowed (§2.3.1.4).
	w.capture("https://c.example/robots.txt", 503, ua("busy"))
	add(want{url: "https://c.example/robots.txt", outcome: "unreachable", effect: "disallow-all", status: 503, final: 503,
		access: [3]string{"blocked", "blocked", "blocked"}, size: 4})
	w.capture("https://c2.example/robots.txt", 429, nil)
	add(want{url: "https://c2.example/robots.txt", outcome: "unreachable", effect: "disallow-all", status: 429, final: 429,
		access: [3]string{"blocked", "blocked", "blocked"}})

	// A redirect to another host, whose record comes later in the file.
	w.capture("http://d.example/robots.txt", 301, nil, "Location", "https://www.d.example/robots.txt")
	w.capture("https://other.example/page", 200, ua("<p>"))
	w.capture("https://www.d.example/robots.txt", 200, ua("User-agent: *\nDisallow: /search\n"))
	// The chain's own row comes when its target is read: before the target's row.
	add(want{url: "http://d.example/robots.txt", outcome: "success", effect: "rules", status: 301, final: 200, redirects: 1,
		access: [3]string{"partly", "partly", "partly"}, size: 32})
	add(want{url: "https://www.d.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"partly", "partly", "partly"}, size: 32})

	// An HTML page served as robots.txt: no group, so nothing is disallowed.
	w.capture("https://e.example/robots.txt", 200, ua("<!DOCTYPE html>\n<html><body>Welcome</body></html>\n"), "Content-Type", "text/html")
	add(want{url: "https://e.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"open", "open", "open"}, html: true, size: 50, lintHas: "html-page"})

	// A file over 500 KiB: the access method reads its first 500 KiB only, so the
	// disallow line after them counts for nothing.
	big := bytes.Repeat([]byte("# padding line of a large file.\n"), 19200) // 614,400 bytes
	big = append(big, "User-agent: *\nDisallow: /\n"...)
	w.capture("https://f.example/robots.txt", 200, big)
	add(want{url: "https://f.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"open", "open", "open"}, truncated: true, size: int64(len(big))})

	// Six redirects: one more than RFC 9309's five, read as a 404 (allow all).
	for i := range 6 {
		w.capture(fmt.Sprintf("https://g%d.example/robots.txt", i), 302, nil, "Location", fmt.Sprintf("https://g%d.example/robots.txt", i+1))
	}
	w.capture("https://g6.example/robots.txt", 200, ua("User-agent: *\nDisallow: /\n"))
	// Each gN's own chain ends at g6 too: g1 has five redirects (followed), g0 six.
	add(want{url: "https://g0.example/robots.txt", outcome: "unavailable", effect: "allow-all", status: 302, final: 302, redirects: 5,
		access: [3]string{"open", "open", "open"}, errHas: "redirects"})
	for i := 1; i < 6; i++ {
		add(want{url: fmt.Sprintf("https://g%d.example/robots.txt", i), outcome: "success", effect: "rules", status: 302, final: 200,
			redirects: int32(6 - i), access: [3]string{"blocked", "blocked", "blocked"}, size: 26})
	}
	add(want{url: "https://g6.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"blocked", "blocked", "blocked"}, size: 26})

	// Usage preferences and an RSL License line.
	w.capture("https://h.example/robots.txt", 200, ua("User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no\nAllow: /\nLicense: https://h.example/license.xml\n"))
	add(want{url: "https://h.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"open", "open", "open"}, lic: true, size: int64(len("User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no\nAllow: /\nLicense: https://h.example/license.xml\n")), usage: "train-ai=n", signal: "search=y,ai-train=n"})

	// A gzip-encoded body, as a server sent it: the access method decodes it.
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(ua("User-agent: GPTBot\nDisallow: /\n"))
	zw.Close()
	w.capture("https://i.example/robots.txt", 200, zb.Bytes(), "Content-Encoding", "gzip")
	add(want{url: "https://i.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"blocked", "open", "open"}, size: int64(zb.Len())})

	// Damage: garbage between records, then a record cut short (its gzip member or
	// its block ends early) followed by good records.
	w.raw([]byte("this is not a WARC record\r\n"))
	damaged := 1
	cut := newWARC(gz)
	cut.capture("https://lost.example/robots.txt", 200, ua("User-agent: *\nDisallow: /\n"))
	b := cut.bytes()
	w.buf.Write(b[:len(b)/2]) // the request record whole, the response cut
	damaged++
	w.capture("https://j.example/robots.txt", 200, ua("User-agent: *\nDisallow: /tmp/\n"))
	add(want{url: "https://j.example/robots.txt", outcome: "success", effect: "rules", status: 200, final: 200,
		access: [3]string{"partly", "partly", "partly"}, size: 30})

	// A redirect out of the file: its target was not recorded here.
	w.capture("https://k.example/robots.txt", 301, nil, "Location", "https://k.example/robots2.txt")
	add(want{url: "https://k.example/robots.txt", status: 301, redirects: 1, errHas: "does not hold"})
	return w, wants, damaged
}

func scanAll(t *testing.T, data []byte, cfg Config) ([]Row, Stats, []error) {
	t.Helper()
	var rows []Row
	var errs []error
	cfg.Errors = func(err error) { errs = append(errs, err) }
	st, err := Scan(context.Background(), bytes.NewReader(data), "test.warc.gz", cfg, func(r *Row) error {
		rows = append(rows, *r)
		return nil
	})
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return rows, st, errs
}

func TestScan(t *testing.T) {
	for _, gz := range []bool{true, false} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			w, wants, damaged := buildCases(gz)
			rows, st, errs := scanAll(t, w.bytes(), Config{Crawlers: testCrawlers, Workers: 3})
			checkRows(t, rows, wants)
			if len(errs) < damaged {
				t.Errorf("%d records reported skipped, want at least %d: %v", len(errs), damaged, errs)
			}
			for _, err := range errs {
				var re *RecordError
				if !errors.As(err, &re) {
					t.Errorf("error %v is not a *RecordError", err)
				}
			}
			if st.Robots != int64(len(wants)) || st.Rows != int64(len(rows)) || st.Unresolved != 1 {
				t.Errorf("stats %+v, want %d robots.txt fetches, %d rows, 1 unresolved", st, len(wants), len(rows))
			}
		})
	}
}

func checkRows(t *testing.T, rows []Row, wants []want) {
	t.Helper()
	if len(rows) != len(wants)*len(testCrawlers) {
		var urls []string
		for _, r := range rows {
			urls = append(urls, r.URL)
		}
		t.Fatalf("%d rows, want %d: %v", len(rows), len(wants)*len(testCrawlers), urls)
	}
	for i, w := range wants {
		for k, c := range testCrawlers {
			r := rows[i*len(testCrawlers)+k]
			name := fmt.Sprintf("%s %s", w.url, c.Name)
			check := func(what string, got, want any) {
				t.Helper()
				if got != want {
					t.Errorf("%s: %s = %v, want %v", name, what, got, want)
				}
			}
			check("url", r.URL, w.url)
			check("agent", r.Agent, c.Name)
			check("outcome", r.Outcome, w.outcome)
			check("effect", r.Effect, w.effect)
			check("status", r.Status, w.status)
			check("final_status", r.FinalStatus, w.final)
			check("redirects", r.Redirects, w.redirects)
			check("access", r.Access, w.access[k])
			check("html", r.HTML, w.html)
			check("truncated", r.Truncated, w.truncated)
			check("rsl_license", r.License, w.lic)
			check("size", r.Size, w.size)
			if !strings.Contains(r.Lint, w.lintHas) {
				t.Errorf("%s: lint %q lacks %q", name, r.Lint, w.lintHas)
			}
			if w.errHas == "" && r.Error != "" || !strings.Contains(r.Error, w.errHas) {
				t.Errorf("%s: error %q, want one with %q", name, r.Error, w.errHas)
			}
			wantPurpose := ""
			if len(c.Purposes) > 0 {
				wantPurpose = string(c.Purposes[0])
			}
			check("purpose", r.Purpose, wantPurpose)
			if k == 0 {
				check("content_usage", r.ContentUsage, w.usage)
				check("content_signal", r.ContentSignal, w.signal)
			}
		}
	}
}

// TestScanCorpus reads every 50th file of the shared corpus as a crawl of 200 answers and checks
// every row against the library's own decisions: a crawler "blocked" may fetch
// no URL of the corpus's URL list, nor the root; one "open" may fetch all; the
// lint codes are lint.Check's.
func TestScanCorpus(t *testing.T) {
	c := testenv.Corpus(t)
	w := newWARC(true)
	var files []corpus.File
	for i, f := range c.Files {
		if i%50 == 0 {
			files = append(files, f)
			w.capture("https://"+f.Host+"/robots.txt", 200, f.Body)
		}
	}
	cs := append(crawlers.Major()[:0:0], crawlers.Major()...)
	rows, st, errs := scanAll(t, w.bytes(), Config{Crawlers: cs})
	if len(errs) > 0 || st.Skipped > 0 {
		t.Fatalf("records skipped: %v", errs)
	}
	if len(rows) != len(files)*len(cs) {
		t.Fatalf("%d rows, want %d", len(rows), len(files)*len(cs))
	}
	paths := []string{"/"}
	for _, u := range c.URLs[:min(len(c.URLs), 200)] {
		if i := strings.Index(u, "://"); i >= 0 {
			if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
				paths = append(paths, u[i+3+j:])
			}
		}
	}
	blocked := 0
	for i, f := range files {
		r := robots.Parse(f.Body)
		var codes []string
		for _, fd := range lint.Check("robots.txt", f.Body) {
			codes = append(codes, string(fd.Code))
		}
		for k, cr := range cs {
			row := rows[i*len(cs)+k]
			if row.URL != "https://"+f.Host+"/robots.txt" || row.Agent != cr.Name || row.Effect != "rules" {
				t.Fatalf("row %d: %s %s %s, want %s %s rules", i, row.URL, row.Agent, row.Effect, f.Host, cr.Name)
			}
			origin := "https://" + f.Host
			switch row.Access {
			case "blocked":
				blocked++
				for _, p := range paths {
					if r.Allowed(cr.Name, origin+p) {
						t.Errorf("%s %s: blocked, but the library allows %s", f.Host, cr.Name, p)
						break
					}
				}
			case "open":
				for _, p := range paths {
					if !r.Allowed(cr.Name, origin+p) {
						t.Errorf("%s %s: open, but the library disallows %s", f.Host, cr.Name, p)
						break
					}
				}
			case "partly":
			default:
				t.Errorf("%s %s: access %q", f.Host, cr.Name, row.Access)
			}
			for _, code := range codes {
				if !strings.Contains(","+row.Lint+",", ","+code+",") {
					t.Errorf("%s: lint %q lacks %s", f.Host, row.Lint, code)
				}
			}
			if row.Size != int64(len(f.Body)) {
				t.Errorf("%s: size %d, want %d", f.Host, row.Size, len(f.Body))
			}
		}
	}
	if blocked == 0 {
		t.Errorf("no crawler blocked entirely in %d files: the corpus has such files", len(files))
	}
}

// TestScanDeterministic: the same file gives the same rows, whatever the workers.
func TestScanDeterministic(t *testing.T) {
	w, _, _ := buildCases(true)
	one, _, _ := scanAll(t, w.bytes(), Config{Crawlers: testCrawlers, Workers: 1})
	many, _, _ := scanAll(t, w.bytes(), Config{Crawlers: testCrawlers, Workers: 8})
	if len(one) != len(many) {
		t.Fatalf("%d rows with one worker, %d with eight", len(one), len(many))
	}
	for i := range one {
		if one[i] != many[i] {
			t.Fatalf("row %d differs:\n%+v\n%+v", i, one[i], many[i])
		}
	}
}

// TestScanWholeStream reads a file compressed as one gzip stream (gzip file.warc).
func TestScanWholeStream(t *testing.T) {
	plain := newWARC(false)
	plain.capture("https://a.example/robots.txt", 200, []byte("User-agent: GPTBot\nDisallow: /\n"))
	plain.capture("https://b.example/robots.txt", 404, nil)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(plain.bytes())
	zw.Close()
	rows, _, errs := scanAll(t, zb.Bytes(), Config{Crawlers: testCrawlers[:1]})
	if len(errs) > 0 || len(rows) != 2 || rows[0].Access != "blocked" || rows[1].Effect != "allow-all" {
		t.Fatalf("rows %+v, errors %v", rows, errs)
	}
}

// TestScanWindow reads files several times the size of the reader's window, its
// records crossing the window's edges, and one record larger than the window
// compressed, through readers that return little at a time: no record is lost or
// reported.
func TestScanWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, gz := range []bool{true, false} {
		w := newWARC(gz)
		n := 0
		for w.buf.Len() < 3*readChunk+readChunk/2 {
			size := 2000 + rng.IntN(6000)
			if n == 3 {
				size = 5 * readChunk // about 3 MiB compressed (28 letters: 4.8 bits a byte)
			}
			body := make([]byte, size)
			for i := range body {
				body[i] = "abcdefghijklmnopqrstuvwxyz/\n"[rng.IntN(28)]
			}
			copy(body, "User-agent: *\nDisallow: /\n")
			w.capture(fmt.Sprintf("https://h%d.example/robots.txt", n), 200, body)
			n++
		}
		for name, r := range map[string]func([]byte) io.Reader{
			"whole": func(b []byte) io.Reader { return bytes.NewReader(b) },
			"half":  func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
		} {
			var errs []error
			rows := 0
			_, err := Scan(context.Background(), r(w.bytes()), "w.warc", Config{Crawlers: testCrawlers[:1], NoLint: true, Errors: func(err error) { errs = append(errs, err) }},
				func(r *Row) error {
					if r.Access != "blocked" {
						t.Errorf("%s: access %q", r.URL, r.Access)
					}
					rows++
					return nil
				})
			if err != nil || len(errs) > 0 || rows != n {
				t.Errorf("gzip=%v %s: %d rows of %d, errors %v %v", gz, name, rows, n, err, errs)
			}
		}
	}
}

// TestScanNoLint: without lint the rows are the same but for the lint column.
func TestScanNoLint(t *testing.T) {
	w, _, _ := buildCases(true)
	with, _, _ := scanAll(t, w.bytes(), Config{Crawlers: testCrawlers})
	without, _, _ := scanAll(t, w.bytes(), Config{Crawlers: testCrawlers, NoLint: true})
	if len(with) != len(without) {
		t.Fatalf("%d rows, %d without lint", len(with), len(without))
	}
	html := 0
	for i := range with {
		r := with[i]
		if r.HTML {
			html++
		}
		r.Lint = ""
		if r != without[i] {
			t.Errorf("row %d without lint:\n%+v\nwant\n%+v", i, without[i], r)
		}
	}
	if html == 0 {
		t.Error("no HTML page among the cases")
	}
}

// TestScanStops: Scan stops when emit fails, when its context ends and when its
// input fails, having emitted rows in the file's order up to there; with the input
// failing, the rows of the fetches read before it are emitted.
func TestScanStops(t *testing.T) {
	w := newWARC(true)
	const fetches = 300 // several batches of jobs
	for i := range fetches {
		w.capture(fmt.Sprintf("https://h%d.example/robots.txt", i), 200, []byte("User-agent: *\nDisallow: /x\n"))
	}
	data := w.bytes()
	cfg := Config{Crawlers: testCrawlers[:1], NoLint: true, Workers: 2}
	all, _, _ := scanAll(t, data, cfg)
	if len(all) != fetches {
		t.Fatalf("%d rows, want %d", len(all), fetches)
	}
	prefix := func(t *testing.T, rows []Row) {
		t.Helper()
		for i := range rows {
			if rows[i] != all[i] {
				t.Fatalf("row %d: %s, want %s", i, rows[i].URL, all[i].URL)
			}
		}
	}

	t.Run("emit fails", func(t *testing.T) {
		stop := errors.New("stop")
		var rows []Row
		_, err := Scan(context.Background(), bytes.NewReader(data), "test.warc.gz", cfg, func(r *Row) error {
			if len(rows) == 100 {
				return stop
			}
			rows = append(rows, *r)
			return nil
		})
		if !errors.Is(err, stop) || len(rows) != 100 {
			t.Fatalf("err %v, %d rows; want stop after 100", err, len(rows))
		}
		prefix(t, rows)
	})

	t.Run("context ends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var rows []Row
		_, err := Scan(ctx, bytes.NewReader(data), "test.warc.gz", cfg, func(r *Row) error {
			rows = append(rows, *r)
			if len(rows) == 50 {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) || len(rows) != 50 {
			t.Fatalf("err %v, %d rows; want context.Canceled after 50", err, len(rows))
		}
		prefix(t, rows)
	})

	t.Run("input fails", func(t *testing.T) {
		broken := errors.New("connection reset")
		cut := len(data) * 2 / 3
		src := io.MultiReader(bytes.NewReader(data[:cut]), iotest.ErrReader(broken))
		var rows []Row
		_, err := Scan(context.Background(), src, "test.warc.gz", cfg, func(r *Row) error {
			rows = append(rows, *r)
			return nil
		})
		if !errors.Is(err, broken) {
			t.Fatalf("err %v, want the input's", err)
		}
		// Every fetch whose records end before the cut is read and emitted (a
		// fetch is three records; the last ones may be cut).
		if want := fetches*2/3 - 2; len(rows) < want || len(rows) == fetches {
			t.Fatalf("%d rows, want at least %d and not all", len(rows), want)
		}
		prefix(t, rows)
	})
}
