package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/verdictjson"
	"github.com/gorobots/robots/internal/weburl"
)

// POST /v1/check: a batch of URLs decided in request order, each origin looked up
// once. The body is decoded by batchjson.go, the answer encoded by json.go.

// batchRequest is the body of POST /v1/check: the crawlers ("agent", or "agents"
// for several, each answered apart unless "merge_agents"), the URLs and the dialect.
type batchRequest struct {
	Agent   string   `json:"agent"`
	Agents  []string `json:"agents"`
	Merge   bool     `json:"merge_agents"`
	URLs    []string `json:"urls"`
	Dialect string   `json:"dialect"`
}

// originState is one origin of a batch: looked up once, encoded once.
type originState struct {
	url    string // the first URL of the batch seen for it
	origin string // its origin (fetch.Origin), "" when it has none
	res    *fetch.Result
	err    error
	index  int // its place in the answer's "origins" once it has one, else -1
	dc     decider
}

// batchChunk is how many URLs of a batch are grouped, looked up and answered at a
// time: enough new origins for their lookups to overlap, few enough for what they
// read to stay in the CPU's caches until they are answered.
const batchChunk = 32

// group encodes urls[i] in place (its input is kept in sc.inputs when that changed
// it) and finds or adds its origin's state; a URL that cannot be encoded is an error
// for its result.
func (sc *batchScratch) group(urls []string, i int) error {
	raw := urls[i]
	// Nearly every URL a crawler asks about is kept as it is, and its origin is a
	// prefix of it: one reading of the URL tells both (weburl.PlainOrigin).
	k, known := weburl.PlainOrigin(raw)
	if !known {
		u, input, err := encodeURL(raw)
		if err != nil {
			sc.inputs[i] = raw
			return err
		}
		urls[i], sc.inputs[i] = u, input
		k, err = fetch.Origin(u)
		if known = err == nil; !known {
			k = u // a group of its own, which lookup reports
		}
	}
	oi, ok := sc.index[k]
	if !ok {
		oi = int32(len(sc.states))
		sc.index[k] = oi
		o := originState{url: urls[i], index: -1}
		if known {
			o.origin = k
		}
		sc.states = append(sc.states, o)
	}
	sc.per[i] = oi
	return nil
}

// peekOrigins looks up the origins of sc.states[first:] in process (fetch.Client.Peek)
// and reports whether every one is held fresh; those that are not are left to
// lookupRest.
func (s *Server) peekOrigins(sc *batchScratch, first int) bool {
	for i := first; i < len(sc.states); i++ {
		o := &sc.states[i]
		if o.origin == "" || len(o.url) > MaxURLBytes {
			return false
		}
		r, ok := s.client.Peek(o.origin)
		if !ok {
			return false
		}
		o.res = r
	}
	return true
}

func (s *Server) handleBatch(r *http.Request) ([]byte, error) {
	req, c, dialect, err := s.readBatch(r)
	if err != nil {
		return nil, err
	}
	sc := getBatchScratch(len(req.URLs))
	defer putBatchScratch(sc)
	a := answerWriter{s: s, ctx: r.Context(), turn: coreTurn{cores: s.decideCores}, sc: sc, c: c, dialect: dialect,
		urls: req.URLs, b: s.newAnswer(req.URLs, c), results: sc.results[:0], max: s.cfg.MaxAnswerBytes}
	s.answerBatch(r, &a)
	a.turn.release()
	a.count()
	sc.results = a.results
	switch stopped := stopName(a.stop); {
	case a.over:
		s.buffers.put(a.b)
		return nil, tooLarge(len(a.b)+len(a.results), s.cfg.MaxAnswerBytes)
	case a.stop != nil && stopped == "":
		s.buffers.put(a.b)
		return nil, a.stop // the client left: nobody reads the answer
	case stopped != "":
		s.metrics.stopped.WithLabelValues(stopped).Inc()
	}
	return a.finish(), nil
}

// readBatch reads and checks a batch request: its crawlers, dialect and URLs
// within the server's limits.
func (s *Server) readBatch(r *http.Request) (batchRequest, crawlerSet, robots.Dialect, error) {
	var req batchRequest
	body, err := readRequestBody(r, s.cfg.MaxBodyBytes)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return req, crawlerSet{}, 0, err
		}
		return req, crawlerSet{}, 0, errorf(http.StatusBadRequest, "reading the request body: %v", err)
	}
	// The body is read into a buffer of its own, never written again: the request's
	// strings (every URL) can be substrings of it without a copy.
	if req, err = s.codec.decode(unsafe.String(unsafe.SliceData(body), len(body))); err != nil {
		return req, crawlerSet{}, 0, errorf(http.StatusBadRequest, "request body: %v", err)
	}
	agents := req.Agents
	if req.Agent != "" {
		agents = append([]string{req.Agent}, agents...)
	}
	c, err := s.crawlersOf(agents, req.Merge)
	if err != nil {
		return req, c, 0, err
	}
	dialect, err := dialectOf(req.Dialect)
	switch {
	case err != nil:
	case len(req.URLs) == 0:
		err = errorf(http.StatusBadRequest, "urls is required (an array of absolute URLs)")
	case len(req.URLs) > s.cfg.MaxURLs:
		err = errorf(http.StatusRequestEntityTooLarge, "%d URLs, more than the limit of %d", len(req.URLs), s.cfg.MaxURLs)
	case len(req.URLs)*len(c.tokens) > s.cfg.MaxDecisions:
		err = errorf(http.StatusRequestEntityTooLarge, "%d URLs for %d crawlers: %d decisions, more than the limit of %d (-max-decisions)",
			len(req.URLs), len(c.tokens), len(req.URLs)*len(c.tokens), s.cfg.MaxDecisions)
	}
	return req, c, dialect, err
}

// newAnswer returns a buffer for the answer to urls, sized for it (grown by append
// when the batch has many origins), with the answer's start written.
func (s *Server) newAnswer(urls []string, c crawlerSet) []byte {
	size := 64 + originBytes + crawlerBytes*len(c.tokens)
	for _, u := range urls {
		size += (len(u) + 80) * len(c.tokens) // 80: the fixed keys, a rule's prefix
	}
	return appendBatchStart(s.buffers.get(min(size, s.cfg.MaxAnswerBytes)), c)
}

// answerBatch groups a batch's URLs by origin, looks the origins up and decides
// the URLs into a.
//
// Grouping by origin finds it as a substring of the URL, without allocating for
// common URLs; a URL without one is a group of its own, which lookup reports. The
// grouping's memory (a.sc) is reused between requests: in a batch of a new origin
// per URL, allocating it was a sixth of the work.
//
// While every origin so far is fresh in process, the URLs are answered as they are
// grouped, a chunk at a time (batchChunk): the chunk's new origins looked up in
// process (fetch.Client.Peek), then each URL decided and each origin encoded at its
// first URL, while what an origin's answer reads is still in the CPU's caches. The
// first origin not held ends this (a fetch, usually): the URLs left are grouped,
// every origin not looked up yet is looked up (lookupRest: the fetches run at once),
// and the URLs left are answered from where the chunks stopped.
func (s *Server) answerBatch(r *http.Request, a *answerWriter) {
	urls, sc := a.urls, a.sc
	var bad []error // the URLs that could not be encoded, once there is one
	groupURLs := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if err := sc.group(urls, i); err != nil {
				if bad == nil {
					bad = make([]error, len(urls))
				}
				bad[i] = err
			}
		}
	}
	lo := 0
	for ; lo < len(urls); lo += batchChunk {
		hi := min(lo+batchChunk, len(urls))
		first := len(sc.states)
		groupURLs(lo, hi)
		if !s.peekOrigins(sc, first) {
			groupURLs(hi, len(urls))
			break
		}
		if a.answer(lo, hi, bad); a.over {
			return
		}
	}
	if lo < len(urls) {
		a.turn.release() // not while fetching
		s.lookupRest(r, sc, a.c, a.dialect)
		a.answer(lo, len(urls), bad)
	}
}

// finish appends the results, the usage lines they name and, when the work
// stopped first, why and how many URLs were not decided, and returns the answer.
func (a *answerWriter) finish() []byte {
	b, results := a.b, a.results
	if len(results) > 0 {
		results = results[1:] // the first separator is not one
	}
	b = slices.Grow(b, len(`],"results":[`)+len(results)+len(`],"stopped":"cpu-budget","undecided":}`)+20)
	b = append(b, `],"results":[`...)
	b = append(b, results...)
	b = append(b, ']')
	b = a.lines.appendTo(b, true)
	if stopped := stopName(a.stop); stopped != "" {
		// The URLs from the first not decided on have an error result each; these say
		// why and how many, so that a client need not count them.
		b = append(b, `,"stopped":"`...)
		b = append(b, stopped...)
		b = append(b, `","undecided":`...)
		b = strconv.AppendInt(b, int64(a.undecided), 10)
	}
	return append(b, '}')
}

// appendResultSep appends the separator before a result: every result has one, and
// the first is dropped when the results are appended to the answer.
func appendResultSep(b []byte) []byte { return append(b, ',') }

// appendBatchStart appends the answer's start, up to its first origin.
func appendBatchStart(b []byte, c crawlerSet) []byte {
	// One crawler: named once, at the top; several: each verdict names its own.
	if len(c.tokens) == 1 {
		b = append(b, `{"agent":`...)
		b = verdictjson.AppendString(b, c.names[0])
		return append(b, `,"origins":[`...)
	}
	return append(b, `{"origins":[`...)
}

// lookupRest looks up the origins of a batch that have no result yet: those the
// client holds fresh at once, the others (fetching them, or failing) under one
// deadline.
func (s *Server) lookupRest(r *http.Request, sc *batchScratch, c crawlerSet, dialect robots.Dialect) {
	missed := sc.missed
	for i := range sc.states {
		o := &sc.states[i] // sc.states grows no more
		if o.res != nil {
			continue
		}
		var ok bool
		if o.res, ok = s.peek(o.url); !ok {
			missed = append(missed, o)
		}
	}
	sc.missed = missed
	if len(missed) > 0 {
		ctx, cancel := s.withCheckTimeout(r.Context())
		defer cancel()
		s.lookupAll(ctx, missed, c, dialect)
	}
}

// answerWriter is an answer being written: the origins into b, in order of first use
// (an origin that could not be looked up is left out), the results into results.
type answerWriter struct {
	s                   *Server
	ctx                 context.Context // the request's work (work.go)
	stop                error           // why the work ended, once it has: the URLs from then on are not decided
	undecided           int             // URLs not decided for stop
	turn                coreTurn        // a core to decide on
	lines               usageLines      // the usage lines the verdicts refer to
	sc                  *batchScratch
	c                   crawlerSet
	dialect             robots.Dialect
	urls                []string
	b, results          []byte
	n                   int // origins in b
	allowed, disallowed int
	days                [2]dayText // appendOrigin's
	max                 int        // MaxAnswerBytes
	over                bool       // the answer passed max: answering stopped
}

// answer decides urls[lo:hi], whose origins are looked up, encoding each origin at
// its first URL. bad holds the URLs that could not be encoded (nil for none). Once
// the request's work ends (its CPU budget spent, its deadline passed, its client
// gone) no more is decided: a URL is decided for every crawler asked about or not
// at all, and each URL not decided has an error result saying why.
func (a *answerWriter) answer(lo, hi int, bad []error) {
	sc, c := a.sc, a.c
	single := len(c.tokens) == 1
	for i := lo; i < hi; i++ {
		if len(a.b)+len(a.results) > a.max {
			a.over = true
			return
		}
		if bad != nil && bad[i] != nil {
			a.results = appendResultSep(a.results)
			a.results = appendURLError(a.results, sc.inputs[i], statusOf(bad[i]), bad[i].Error())
			continue
		}
		u := a.urls[i]
		if a.stop == nil && (spent(a.ctx) || !a.turn.take(a.ctx)) {
			a.stop = context.Cause(a.ctx)
		}
		if a.stop != nil {
			a.notDecided(u)
			continue
		}
		o := &sc.states[sc.per[i]]
		if o.err != nil {
			a.results = appendResultSep(a.results)
			a.results = appendURLError(a.results, u, statusOf(o.err), o.err.Error())
			continue
		}
		if o.index < 0 { // its first URL
			if a.n > 0 {
				a.b = append(a.b, ',')
			}
			o.index, a.n = a.n, a.n+1
			a.b = a.s.codec.origin(a.b, o.res, c, &a.days)
			o.dc = a.s.newDecider(o.res, a.dialect)
		}
		mark, marked, allowed := len(a.results), a.lines.mark(), 0
		for ci, tokens := range c.tokens {
			if ci > 0 && spent(a.ctx) {
				a.stop = context.Cause(a.ctx)
				break
			}
			d, usage, readings := o.dc.decide(tokens, u)
			if d.Allowed {
				allowed++
			}
			agent := c.names[ci]
			if single {
				agent = ""
			}
			a.results = appendResultSep(a.results)
			v := verdictjson.Verdict{URL: u, Input: sc.inputs[i], Agent: agent, Decision: d, Usage: usage, Readings: readings}
			if v.Usage != nil {
				a.lines.note(o.index, v.Usage.Lines)
			}
			a.results = a.s.codec.verdict(v, a.results)
			a.results = append(a.results, `,"origin":`...)
			a.results = strconv.AppendInt(a.results, int64(o.index), 10)
			a.results = append(a.results, '}')
		}
		if a.stop != nil {
			a.results = a.results[:mark] // the crawlers decided for u are left out with the others
			a.lines.undo(marked)
			a.notDecided(u)
			continue
		}
		a.allowed += allowed
		a.disallowed += len(c.tokens) - allowed
		if a.allowed+a.disallowed >= countEvery {
			a.count()
		}
	}
}

// countEvery is how many decisions a batch makes between two counts in the
// metrics: a batch is seen deciding while it runs, without an atomic addition per
// decision.
const countEvery = 256

// count adds the decisions made since it was last called to the metrics.
func (a *answerWriter) count() {
	a.s.metrics.allowed.Add(float64(a.allowed))
	a.s.metrics.disallowed.Add(float64(a.disallowed))
	a.allowed, a.disallowed = 0, 0
}

// notDecided appends the result of a URL not decided because the request's work
// ended (a.stop).
func (a *answerWriter) notDecided(u string) {
	a.undecided++
	err := errNotDecided(a.stop)
	a.results = appendResultSep(a.results)
	a.results = appendURLError(a.results, u, statusOf(err), err.Error())
}

// originBytes and crawlerBytes estimate an origin object's size (appendOrigin) for
// the answer's buffer: the fixed fields with an origin name of 40 bytes, and one
// crawler's crawl-delay.
const (
	originBytes  = 280
	crawlerBytes = 30
)

// batchScratch is the grouping of one batch's URLs by origin, reused between
// requests.
type batchScratch struct {
	index   map[string]int32 // origin → index in states
	states  []originState
	missed  []*originState
	per     []int32  // each URL's origin, in request order
	inputs  []string // each URL as given, when encoding changed it
	results []byte   // the answer's results, while they are encoded apart
}

// maxScratchURLs bounds the grouping kept for reuse: one of a larger batch is left
// to the garbage collector, so that a rare huge batch does not pin its memory.
const maxScratchURLs = 4096

var batchScratches = sync.Pool{New: func() any { return &batchScratch{index: make(map[string]int32)} }}

// getBatchScratch returns an empty grouping with room for n URLs.
func getBatchScratch(n int) *batchScratch {
	sc := batchScratches.Get().(*batchScratch)
	if cap(sc.per) < n {
		sc.per, sc.inputs = make([]int32, n), make([]string, n)
	}
	sc.per, sc.inputs = sc.per[:n], sc.inputs[:n]
	return sc
}

func putBatchScratch(sc *batchScratch) {
	if len(sc.per) > maxScratchURLs || cap(sc.results) > maxPooledBuffer {
		return
	}
	clear(sc.index)
	clear(sc.states) // no result, URL or answer kept alive
	clear(sc.missed)
	clear(sc.inputs)
	sc.states, sc.missed = sc.states[:0], sc.missed[:0]
	batchScratches.Put(sc)
}

// batchHeld is what a batch holds for a result it looked up, measured as the heap
// it will hold once decided (Robots.MemSize): the result, the rule sets the batch's
// crawlers' decisions build (the root package compiles them on first use: for a file
// of many groups they were most of it, and batches held 2.5 times their budget), and
// for another dialect than Google's the file parsed again (newDecider): tables about
// as large as the first's, over the same body (robots.ParseString keeps Body itself);
// for a file that states usage in Google's reading, its RFC 9309 reading too
// (otherReadings), as large again.
func batchHeld(res *fetch.Result, u string, c crawlerSet, dialect robots.Dialect) int64 {
	rb := res.Robots
	if res.Effect != fetch.ObeyRules || rb == nil {
		return res.MemSize()
	}
	for _, tokens := range c.tokens {
		res.CheckAgents(tokens, u)
	}
	n := res.MemSize()
	if dialect != robots.Google {
		n += int64(rb.MemSize() - len(res.Body))
	}
	if dialect == robots.Google && rb.StatesUsage() {
		n += int64(rb.MemSize() - len(res.Body))
	}
	return n
}

// lookupAll looks up every origin of a batch with at most BatchFetches workers:
// a warm cache answers at once, and a slow origin holds up one worker only. Once
// the results looked up hold BatchMaxBytes, the origins left are not looked up
// (errBatchBudget): each worker may finish the lookup it has begun, so the results
// held pass the budget by at most BatchFetches files.
func (s *Server) lookupAll(ctx context.Context, origins []*originState, c crawlerSet, dialect robots.Dialect) {
	var next, held atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(origins) {
				return
			}
			o := origins[i]
			if ctx.Err() != nil {
				// The request ended (its client left, or the check timeout passed):
				// asking for more origins would only queue fetches nobody waits for.
				o.err = context.Cause(ctx)
				continue
			}
			if held.Load() >= s.cfg.BatchMaxBytes {
				o.err = &httpError{code: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(
					"robots.txt not looked up: this batch holds %d bytes of robots.txt files already, its limit (-batch-max-bytes %d); ask for this URL in another batch",
					held.Load(), s.cfg.BatchMaxBytes)}
				s.metrics.budgetRefused.Inc()
				continue
			}
			o.res, o.err = s.lookup(ctx, o.url)
			if o.err == nil {
				held.Add(batchHeld(o.res, o.url, c, dialect))
			}
		}
	}
	workers := min(s.cfg.BatchFetches, len(origins))
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// readRequestBody reads r's body (already bounded by http.MaxBytesReader) into one
// buffer sized by Content-Length when the client sent it, or returns the body
// admission read (admit.go). The buffer is always a new one (handleBatch reads
// strings out of it without copying).
func readRequestBody(r *http.Request, limit int64) ([]byte, error) {
	if p, ok := r.Body.(*preread); ok && p.off == 0 {
		p.off = len(p.b)
		return p.b, nil
	}
	n := r.ContentLength
	if n < 0 || n > limit {
		n = 512
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead)) // room for ReadFrom to see EOF without growing
	_, err := buf.ReadFrom(r.Body)
	return buf.Bytes(), err
}
