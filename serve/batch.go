package serve

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gorobots/robots/fetch"
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
	url   string // the first URL of the batch seen for it
	res   *fetch.Result
	err   error
	index int    // its place in the answer's "origins", once it has one
	json  []byte // its origin object
	dc    decider
}

func (s *Server) handleBatch(r *http.Request) ([]byte, error) {
	body, err := readRequestBody(r, s.cfg.MaxBodyBytes)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		return nil, errorf(http.StatusBadRequest, "reading the request body: %v", err)
	}
	req, err := decodeBatch(string(body))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "request body: %v", err)
	}
	agents := req.Agents
	if req.Agent != "" {
		agents = append([]string{req.Agent}, agents...)
	}
	c, err := s.crawlersOf(agents, req.Merge)
	if err != nil {
		return nil, err
	}
	dialect, err := dialectOf(req.Dialect)
	if err != nil {
		return nil, err
	}
	if len(req.URLs) == 0 {
		return nil, errorf(http.StatusBadRequest, "urls is required (an array of absolute URLs)")
	}
	if len(req.URLs) > s.cfg.MaxURLs {
		return nil, errorf(http.StatusRequestEntityTooLarge, "%d URLs, more than the limit of %d", len(req.URLs), s.cfg.MaxURLs)
	}

	// Group by origin (for common URLs a substring of the URL, found without
	// allocating). A URL without one is a group of its own, which lookup reports.
	var origins []*originState
	index := make(map[string]*originState)
	per := make([]*originState, len(req.URLs))
	inputs := make([]string, len(req.URLs))
	var bad []error
	for i, raw := range req.URLs {
		u, input, err := encodeURL(raw)
		if err != nil {
			if bad == nil {
				bad = make([]error, len(req.URLs))
			}
			bad[i] = err
			inputs[i] = raw
			continue
		}
		req.URLs[i], inputs[i] = u, input
		k, err := fetch.Origin(u)
		if err != nil {
			k = u
		}
		o := index[k]
		if o == nil {
			o = &originState{url: u}
			index[k] = o
			origins = append(origins, o)
		}
		per[i] = o
	}
	// Origins the client holds fresh are decided at once; the others are looked up
	// under one deadline.
	var missed []*originState
	for _, o := range origins {
		var ok bool
		if o.res, ok = s.peek(o.url); !ok {
			missed = append(missed, o)
		} else {
			o.json = s.memos.get(o.res, c)
		}
	}
	if len(missed) > 0 {
		ctx, cancel := s.withCheckTimeout(r.Context())
		defer cancel()
		s.lookupAll(ctx, missed, c)
	}

	// The origins, each once, in order of first use; then the verdicts, which refer
	// to them by index.
	size := 64
	for _, o := range origins {
		size += len(o.json) + 1
	}
	for _, u := range req.URLs {
		size += (len(u) + 80) * len(c.tokens) // 80: the fixed keys, a rule's prefix
	}
	b := s.buffers.get(size)
	// One crawler: named once, at the top; several: each verdict names its own.
	single := len(c.tokens) == 1
	if single {
		b = append(b, `{"agent":`...)
		b = appendString(b, c.names[0])
		b = append(b, `,"origins":[`...)
	} else {
		b = append(b, `{"origins":[`...)
	}
	n := 0
	for _, o := range origins {
		if o.err != nil {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		o.index, n = n, n+1
		b = append(b, o.json...)
		o.dc = newDecider(o.res, dialect)
	}
	b = append(b, `],"results":[`...)
	var allowed, disallowed int
	first := true
	for i, u := range req.URLs {
		if bad != nil && bad[i] != nil {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendURLError(b, inputs[i], statusOf(bad[i]), bad[i].Error())
			continue
		}
		o := per[i]
		if o.err != nil {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendURLError(b, u, statusOf(o.err), o.err.Error())
			continue
		}
		for ci, tokens := range c.tokens {
			if !first {
				b = append(b, ',')
			}
			first = false
			d := o.dc.check(tokens, u)
			if d.Allowed {
				allowed++
			} else {
				disallowed++
			}
			agent := c.names[ci]
			if single {
				agent = ""
			}
			b = appendVerdict(b, u, inputs[i], agent, d)
			b = append(b, `,"origin":`...)
			b = strconv.AppendInt(b, int64(o.index), 10)
			b = append(b, '}')
		}
	}
	b = append(b, "]}"...)
	s.metrics.allowed.Add(float64(allowed))
	s.metrics.disallowed.Add(float64(disallowed))
	return b, nil
}

// lookupAll looks up every origin of a batch with at most BatchFetches workers:
// a warm cache answers at once, and a slow origin holds up one worker only.
func (s *Server) lookupAll(ctx context.Context, origins []*originState, c crawlerSet) {
	var next atomic.Int64
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
			o.res, o.err = s.lookup(ctx, o.url)
			if o.err == nil {
				o.json = s.memos.get(o.res, c)
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
// buffer sized by Content-Length when the client sent it.
func readRequestBody(r *http.Request, limit int64) ([]byte, error) {
	n := r.ContentLength
	if n < 0 || n > limit {
		n = 512
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead)) // room for ReadFrom to see EOF without growing
	_, err := buf.ReadFrom(r.Body)
	return buf.Bytes(), err
}
