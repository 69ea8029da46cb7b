package census

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/crawlers"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/lint"
)

// Limits of a scan.
const (
	// MaxPending bounds the redirects of a file waiting for their target's record
	// further on in the same file. Past it the oldest is written as unresolved.
	MaxPending = 100_000
	// maxRedirectBody is what is kept of a redirect's body (nothing reads it).
	maxRedirectBody = 0
)

// GCPercent is the garbage collector's setting (GOGC, debug.SetGCPercent) that
// robots corpus runs scans with when GOGC is not set, and BenchmarkScan measures
// them with. A scan allocates much that dies young around a small live heap, which
// the default of 100 collects again and again: 400 lets the heap grow to five
// times its live size between collections, for 5.8% fewer instructions reading one
// crawler's rows (1.9% by default) and up to twice the peak memory (docs/corpus.md).
const GCPercent = 400

// Config says what a scan writes.
type Config struct {
	// Crawlers are the crawlers of each row, in order (crawlers.Major() when nil).
	Crawlers []crawlers.Crawler
	// Workers is how many goroutines decide records (runtime.GOMAXPROCS when zero).
	Workers int
	// Progress, when set, is called now and then with the input bytes read so far.
	Progress func(read int64)
	// Errors, when set, receives each record skipped (a *RecordError), as it is met.
	Errors func(error)
	// NoLint leaves Row.Lint empty. Linting costs most of a scan's time
	// (BENCHMARKS.md, "robots corpus"); Row.HTML is filled either way.
	NoLint bool
}

// Stats counts what a scan read.
type Stats struct {
	Records    int64 // WARC records read
	Responses  int64 // HTTP response records
	Robots     int64 // robots.txt fetches (one row per crawler each)
	Unresolved int64 // of which redirects whose target is not in the file
	Skipped    int64 // records that could not be read (reported to Config.Errors)
	Rows       int64
	Bytes      int64 // input bytes read
}

// Scan reads the WARC file src (compressed or not; name is what rows and errors
// call it) and calls emit with the rows of each robots.txt fetch it holds, in the
// order of the file: the same input and version give the same rows (the *Row
// is emit's to read only during the call: it copies what it keeps, and changes
// nothing). A record
// that cannot be read is reported to cfg.Errors and skipped. Scan returns early
// when emit fails, ctx ends or src fails; the Stats say how far it got.
func Scan(ctx context.Context, src io.Reader, name string, cfg Config, emit func(*Row) error) (Stats, error) {
	s := newScanner(name, cfg)
	return s.run(ctx, src, emit)
}

type scanner struct {
	name     string
	cfg      Config
	client   *fetch.Client
	crawlers []crawlers.Crawler
	names    []names // each crawler's
}

// names are what a crawler's row says of it.
type names struct{ agent, purpose string }

func newScanner(name string, cfg Config) *scanner {
	s := &scanner{name: name, cfg: cfg, crawlers: cfg.Crawlers}
	if s.crawlers == nil {
		s.crawlers = crawlers.Major()
	}
	for i := range s.crawlers {
		c := &s.crawlers[i] // a Crawler is large: not copied
		purpose := ""
		if len(c.Purposes) > 0 {
			purpose = string(c.Purposes[0])
		}
		s.names = append(s.names, names{c.Name, purpose})
	}
	if s.cfg.Workers <= 0 {
		s.cfg.Workers = runtime.GOMAXPROCS(0)
	}
	s.client = fetch.NewClient(fetch.Config{})
	return s
}

// response is one HTTP response record, as much of it as the rows need.
type response struct {
	offset    int64
	uri       string // as recorded
	url       string // parsed and written again, for matching redirects
	host      string // its host, lower case
	robots    bool   // the URL is the robots.txt of its origin
	date      string
	truncated string
	status    int
	header    http.Header
	body      string // the payload, de-chunked, at most the fetch size limit + 1
	size      int64  // the payload's size as recorded
	target    string // a redirect's Location, resolved; "" otherwise
}

// job is a robots.txt fetch: the response to the robots.txt URL, then the
// responses its redirects led to, as the file holds them.
type job struct {
	chain      []*response
	unresolved bool           // the last response redirects to a URL the file does not hold
	sent       bool           // given to the workers
	one        [1]*response   // chain's first, without an allocation of its own
	first      response       // the robots.txt response it starts with, where one[0] points
	recorded   fetch.Recorded // the hop Replay reads, one after another
	// The rows, once decided: base is what every crawler's row holds, picks[i] the
	// reading of groups that is crawler i's (its access and usage preferences).
	// The emitter writes each crawler's fields into one Row in turn, where a Row
	// was copied for every crawler and the collector scanned them: 3% fewer
	// instructions for 75 crawlers without output (1,562 -> 1,513 M).
	base     Row
	picks    []int32
	readings []reading
	pickArr  [4]int32
	readArr  [2]reading
}

// reading is what a crawler's row says of the groups that apply to it, read once
// for all the crawlers they apply to; lo:hi are the groups (in rows' buffer).
type reading struct {
	lo, hi                int
	access, usage, signal string
}

// A batch is jobs handed to a worker together, so that the reader and the workers
// take turns less often: on one core each turn costs a switch and evicts the other's
// tables and buffers from the caches.
type batch struct {
	jobs  []*job
	bytes int // the bodies of their chains
	done  sync.WaitGroup
}

// A batch goes to the workers at batchJobs jobs or batchBytes bytes of bodies, so
// that the jobs between the reader and the emitter stay few and small.
const (
	batchJobs  = 32
	batchBytes = 1 << 20
)

func (s *scanner) run(ctx context.Context, src io.Reader, emit func(*Row) error) (Stats, error) {
	var st Stats
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	work := make(chan *batch, 2*s.cfg.Workers)
	ordered := make(chan *batch, 4*s.cfg.Workers)
	var wg sync.WaitGroup
	for range s.cfg.Workers {
		wg.Go(func() {
			for b := range work {
				for _, j := range b.jobs {
					s.decide(ctx, j)
				}
				b.done.Done()
			}
		})
	}
	var emitErr error
	emitted := make(chan struct{})
	go func() {
		defer close(emitted)
		var row Row
		for b := range ordered {
			b.done.Wait()
			for _, j := range b.jobs {
				if emitErr != nil || ctx.Err() != nil {
					break
				}
				row = j.base
				for i, k := range j.picks {
					rd := &j.readings[k]
					n := &s.names[i]
					row.Agent, row.Purpose = n.agent, n.purpose
					row.Access, row.ContentUsage, row.ContentSignal = rd.access, rd.usage, rd.signal
					if err := emit(&row); err != nil {
						emitErr = err
						cancel()
						break
					}
					st.Rows++
				}
			}
		}
	}()

	cur := &batch{}
	flush := func() bool {
		if len(cur.jobs) == 0 {
			return true
		}
		b := cur
		cur = &batch{jobs: make([]*job, 0, batchJobs)}
		b.done.Add(1)
		select {
		case ordered <- b:
		case <-ctx.Done():
			return false
		}
		work <- b
		return true
	}
	send := func(j *job) bool {
		j.sent = true
		st.Robots++
		if j.unresolved {
			st.Unresolved++
		}
		cur.jobs = append(cur.jobs, j)
		for _, r := range j.chain {
			cur.bytes += len(r.body)
		}
		if len(cur.jobs) < batchJobs && cur.bytes < batchBytes {
			return true
		}
		return flush()
	}
	err := s.read(ctx, src, &st, send)
	if !flush() && err == nil {
		err = ctx.Err()
	}
	close(work)
	close(ordered)
	wg.Wait()
	<-emitted
	if emitErr != nil {
		return st, emitErr
	}
	if err == nil {
		err = ctx.Err()
	}
	return st, err
}

// read reads the records of src in order and sends a job for each robots.txt
// fetch, once the redirects it starts are followed as far as the file goes.
func (s *scanner) read(ctx context.Context, src io.Reader, st *Stats, send func(*job) bool) error {
	r := newWARCReader(s.name, src)
	hr := &headerReader{br: bufio.NewReaderSize(nil, 4<<10)}
	// pending holds the redirect chains waiting for a record of their target URL,
	// by that URL; order holds them by age, for MaxPending and for the end of file.
	pending := map[string][]*job{}
	var order []*job
	waiting := 0
	finish := func(j *job, unresolved bool) bool {
		j.unresolved = unresolved
		return send(j)
	}
	// wait puts j, whose last response redirects, in pending; or sends it when the
	// chain is already longer than any policy follows, or loops.
	wait := func(j *job) bool {
		last := j.chain[len(j.chain)-1]
		if len(j.chain) > fetch.Legacy1996MaxRedirects || slices.ContainsFunc(j.chain, func(r *response) bool { return r.url == last.target }) {
			return finish(j, false)
		}
		pending[last.target] = append(pending[last.target], j)
		order = append(order, j)
		waiting++
		for waiting > MaxPending && len(order) > 0 {
			old := order[0]
			order = order[1:]
			if !old.sent && s.unpend(pending, old) {
				waiting--
				if !finish(old, true) {
					return false
				}
			}
		}
		return true
	}
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rec, err := r.next()
		st.Bytes = r.read
		if s.cfg.Progress != nil {
			s.cfg.Progress(r.read)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if re := (*RecordError)(nil); errors.As(err, &re) {
				st.Skipped++
				if s.cfg.Errors != nil {
					s.cfg.Errors(err)
				}
				continue
			}
			return fmt.Errorf("%s: %w", s.name, err)
		}
		st.Records++
		if string(rec.typ) != "response" || len(rec.contentType) < len("application/http") || !equalFold(rec.contentType[:len("application/http")], "application/http") {
			continue
		}
		resp, err := hr.parse(rec)
		if err != nil {
			st.Skipped++
			if s.cfg.Errors != nil {
				s.cfg.Errors(&RecordError{File: s.name, Offset: rec.offset, Err: err})
			}
			continue
		}
		st.Responses++
		js := pending[resp.url]
		if len(js) == 0 && !resp.robots {
			continue // nothing reads it
		}
		// The response outlives the next record, which hr reads into the same place: in
		// the job it starts, or alone.
		var j *job
		if resp.robots {
			j = &job{first: *resp}
			resp = &j.first
		} else {
			r := new(response)
			*r = *resp
			resp = r
		}
		// The chains that redirected here go on with this response.
		if len(js) > 0 {
			delete(pending, resp.url)
			for _, j := range js {
				waiting--
				j.chain = append(j.chain, resp)
				ok := true
				if resp.target != "" {
					ok = wait(j)
				} else {
					ok = finish(j, false)
				}
				if !ok {
					return ctx.Err()
				}
			}
		}
		if j == nil {
			continue
		}
		j.one[0] = resp
		j.chain = j.one[:]
		ok := true
		if resp.target != "" {
			ok = wait(j)
		} else {
			ok = finish(j, false)
		}
		if !ok {
			return ctx.Err()
		}
	}
	// The end of the file: what still waits redirects out of it.
	for _, j := range order {
		if !j.sent && s.unpend(pending, j) {
			if !finish(j, true) {
				return ctx.Err()
			}
		}
	}
	return nil
}

// unpend removes j from pending and reports whether it was there.
func (s *scanner) unpend(pending map[string][]*job, j *job) bool {
	t := j.chain[len(j.chain)-1].target
	js := pending[t]
	i := slices.Index(js, j)
	if i < 0 {
		return false
	}
	js = slices.Delete(js, i, i+1)
	if len(js) == 0 {
		delete(pending, t)
	} else {
		pending[t] = js
	}
	return true
}

// headerReader reads the HTTP headers of a file's response records with
// net/http, through one bufio.Reader.
type headerReader struct {
	src  bytes.Reader
	br   *bufio.Reader
	resp response // the response parse read last
}

// parse reads the HTTP response a response record holds into h.resp, which is
// h's again at the next call.
func (h *headerReader) parse(rec *record) (*response, error) {
	block := rec.block
	var head []byte
	end, sep := bytes.Index(block, []byte("\r\n\r\n")), 4
	if end >= 0 {
		head = block[:end+sep]
	} else {
		if end, sep = bytes.Index(block, []byte("\n\n")), 2; end < 0 {
			return nil, errors.New("HTTP response without the end of its header")
		}
		head = append(block[:end:end], "\r\n\r\n"...)
	}
	h.src.Reset(head)
	h.br.Reset(&h.src)
	hr, err := http.ReadResponse(h.br, nil)
	if err != nil {
		return nil, fmt.Errorf("HTTP response: %w", err)
	}
	uri := string(rec.uri)
	u, err := url.Parse(uri)
	if err != nil {
		return nil, fmt.Errorf("WARC-Target-URI: %w", err)
	}
	u.Fragment = ""
	payload := block[end+sep:]
	resp := &h.resp
	*resp = response{
		offset: rec.offset, uri: uri, url: u.String(), date: string(rec.date), truncated: string(rec.truncated),
		host:   strings.ToLower(u.Hostname()),
		robots: (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Path == "/robots.txt" && u.RawQuery == "",
		status: hr.StatusCode, header: hr.Header, size: int64(len(payload)),
	}
	if slices.Contains(hr.TransferEncoding, "chunked") {
		// Recorded as sent: the size is the file's, de-chunked.
		if data, err := io.ReadAll(io.LimitReader(httputil.NewChunkedReader(bytes.NewReader(payload)), robots.DefaultMaxBytes+1)); err == nil || len(data) > 0 {
			payload = data
		}
		resp.size = int64(len(payload))
	}
	switch {
	case hr.StatusCode >= 300 && hr.StatusCode <= 399:
		if loc := hr.Header.Get("Location"); loc != "" {
			if t, err := u.Parse(loc); err == nil && (t.Scheme == "http" || t.Scheme == "https") {
				t.Fragment = ""
				resp.target = t.String()
			}
		}
		payload = payload[:min(len(payload), maxRedirectBody)]
	case hr.StatusCode < 200 || hr.StatusCode > 299:
		payload = nil // the access method reads no other body
	}
	resp.body = string(payload[:min(len(payload), robots.DefaultMaxBytes+1)])
	return resp, nil
}

// errNotArchived is the answer to a request for a URL the job's chain does not
// hold, worded as an http.Client would word a failed GET.
var errNotArchived = errors.New("not in this WARC file")

// decide makes j's rows: the fetch read by the access method, then one row per crawler.
func (s *scanner) decide(ctx context.Context, j *job) {
	first := j.chain[0]
	// The access method asks for the chain's responses in order, as the crawler
	// recorded them.
	next, miss := 0, ""
	res, err := s.client.Replay(first.url, func(u string) (*fetch.Recorded, error) {
		if next >= len(j.chain) {
			miss = u
			return nil, &url.Error{Op: "Get", URL: u, Err: errNotArchived}
		}
		r := j.chain[next]
		next++
		j.recorded = fetch.Recorded{Status: r.status, Header: r.header, Body: r.body}
		return &j.recorded, nil
	})
	base := Row{
		File: s.name, Offset: first.offset, URL: first.uri, Date: first.date,
		Status: int32(first.status), Size: first.size, WARCTruncated: first.truncated,
	}
	// net/http keys the header by canonical names: read without Header.Get's
	// canonicalizing of the name again (0.2% of a scan's instructions).
	if v := first.header["Content-Type"]; len(v) > 0 {
		base.ContentType = v[0]
	}
	base.Host = first.host
	if err != nil {
		base.Error = err.Error()
		s.rows(j, base, nil)
		return
	}
	base.Origin = res.Origin
	last := j.chain[min(len(res.Hops), len(j.chain))-1]
	base.FinalStatus = int32(res.Status)
	base.Redirects = int32(max(len(res.Hops)-1, 0))
	if len(res.Hops) > 0 {
		base.FinalURL = res.Hops[len(res.Hops)-1].URL
	}
	if res.Err != nil {
		base.Error = res.Err.Error()
	}
	if miss != "" && j.unresolved {
		// The crawl went on to a URL this file does not hold: what the access
		// method makes of it is unknown here.
		base.FinalStatus = 0
		base.Error = fmt.Sprintf("redirect to %s, which this WARC file does not hold", miss)
		s.rows(j, base, nil)
		return
	}
	base.Outcome, base.Effect = res.Outcome.String(), res.Effect.String()
	if res.Effect == fetch.ObeyRules {
		base.Size = last.size
		base.Truncated = res.Truncated
		if s.cfg.NoLint {
			// The compiler converts without a copy: IsHTML neither keeps nor changes
			// the bytes (go build -gcflags=-m: "zero-copy string->[]byte conversion").
			base.HTML = lint.IsHTML([]byte(res.Body))
		} else {
			body := []byte(res.Body)
			var list []string
			// The rules the access method parsed (Google's reading, up to 500 KiB,
			// which is what lint's robots.Parse reads) are lint's too.
			for _, f := range lint.CheckWith("robots.txt", body, lint.Options{Parsed: res.Robots}) {
				list = append(list, string(f.Code))
				base.HTML = base.HTML || f.Code == lint.HTMLPage
			}
			slices.Sort(list)
			base.Lint = strings.Join(slices.Compact(list), ",")
		}
		base.License = len(res.Robots.Licenses()) > 0
	}
	s.rows(j, base, res)
}

// rows makes j's rows: base, and the reading of groups of each crawler, by res
// (nil: undecided). Crawlers that the same groups apply to (most fall to the "*"
// group) share one reading of them.
func (s *scanner) rows(j *job, base Row, res *fetch.Result) {
	j.base = base
	j.picks, j.readings = j.pickArr[:0], j.readArr[:0]
	if len(s.crawlers) > len(j.pickArr) {
		j.picks = make([]int32, 0, len(s.crawlers))
	}
	if res == nil || res.Effect != fetch.ObeyRules {
		rd := reading{}
		if res != nil {
			switch res.Effect {
			case fetch.AllowAll:
				rd.access = string(lint.AccessAll)
			case fetch.DisallowAll:
				rd.access = string(lint.AccessNone)
			}
		}
		j.readings = append(j.readings, rd)
		j.picks = j.picks[:len(s.crawlers)] // all 0
		clear(j.picks)
		return
	}
	// The groups of each reading are in gsBuf, at lo:hi: most files need no more
	// room than the array gives, and nothing of a reading is allocated.
	var gsArr [16]int
	gsBuf := gsArr[:0]
	star := -1 // the reading of the crawlers that fall to the "*" groups, once made
	for i := range s.crawlers {
		lo := len(gsBuf)
		var global bool
		gsBuf, global = res.Robots.AppendGroupsFor(gsBuf, s.names[i].agent)
		if global && star >= 0 { // most crawlers: no comparison of groups
			gsBuf = gsBuf[:lo]
			j.picks = append(j.picks, int32(star))
			continue
		}
		gs := gsBuf[lo:]
		k := -1
		for ri := range j.readings { // a loop: IndexFunc's func took each reading by value
			if r := &j.readings[ri]; slices.Equal(gsBuf[r.lo:r.hi], gs) {
				k = ri
				break
			}
		}
		if k >= 0 {
			gsBuf = gsBuf[:lo]
		} else {
			rd := reading{lo: lo, hi: len(gsBuf), access: string(lint.AccessIn(res.Robots, gs))}
			if res.Robots.StatesUsage() { // else no preference is stated: skip reading them
				u := res.Robots.Usage(s.names[i].agent, res.Origin+"/")
				rd.usage, rd.signal = stated(u.ContentUsage), stated(u.ContentSignal)
			}
			j.readings = append(j.readings, rd)
			k = len(j.readings) - 1
		}
		if global {
			star = k
		}
		j.picks = append(j.picks, int32(k))
	}
}

// stated writes the preferences that are not unknown as "label=y" or "label=n",
// in the vocabulary's order.
func stated(st []robots.Stated) string {
	var b strings.Builder
	for _, s := range st {
		var v string
		switch s.Preference {
		case robots.UsageAllowed:
			v = "y"
		case robots.UsageDisallowed:
			v = "n"
		default:
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.Label)
		b.WriteByte('=')
		b.WriteString(v)
	}
	return b.String()
}
