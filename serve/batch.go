package serve

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/gorobots/robots/fetch"
)

// POST /v1/check: a batch of URLs decided in request order, each origin looked up
// once. The body is decoded by batchjson.go, the answer encoded by json.go.

// batchRequest is the body of POST /v1/check.
type batchRequest struct {
	Agent  string   `json:"agent"`
	Agents []string `json:"agents"`
	URLs   []string `json:"urls"`
}

// originState is one origin of a batch: looked up once, encoded once.
type originState struct {
	url  string // the first URL of the batch seen for it
	res  *fetch.Result
	err  error
	json []byte // the per-origin fields of each result
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
	if err := s.agentsOf(agents); err != nil {
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
	for i, u := range req.URLs {
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
			o.json = s.memos.get(o.res, agents)
		}
	}
	if len(missed) > 0 {
		ctx, cancel := s.withCheckTimeout(r.Context())
		defer cancel()
		s.lookupAll(ctx, missed, agents)
	}

	size := 64
	for i, u := range req.URLs {
		size += len(u) + len(per[i].json) + 96 // 96: the fixed keys, a rule's prefix
	}
	b := s.buffers.get(size)
	b = append(b, `{"results":[`...)
	var allowed, disallowed int
	for i, u := range req.URLs {
		if i > 0 {
			b = append(b, ',')
		}
		o := per[i]
		if o.err != nil {
			b = appendURLError(b, u, statusOf(o.err), o.err.Error())
			continue
		}
		d := o.res.CheckAgents(agents, u)
		if d.Allowed {
			allowed++
		} else {
			disallowed++
		}
		b = appendDecision(b, u, d, o.json)
	}
	b = append(b, "]}"...)
	s.metrics.allowed.Add(float64(allowed))
	s.metrics.disallowed.Add(float64(disallowed))
	return b, nil
}

// lookupAll looks up every origin of a batch with at most BatchFetches workers:
// a warm cache answers at once, and a slow origin holds up one worker only.
func (s *Server) lookupAll(ctx context.Context, origins []*originState, agents []string) {
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(origins) {
				return
			}
			o := origins[i]
			o.res, o.err = s.lookup(ctx, o.url)
			if o.err == nil {
				o.json = s.memos.get(o.res, agents)
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
