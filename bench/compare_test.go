// Package bench compares the robots package with other Go robots.txt libraries on the
// shared corpus. It is a separate module so that their code stays out of the main
// go.mod. Run it with run.sh, which also prints the ratios the project targets.
package bench

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/corpus"
	"github.com/gorobots/robots/internal/testenv"
	"github.com/jimsmart/grobotstxt"
	"github.com/temoto/robotstxt"
)

// data is the corpus prepared once for every library, so that all of them see the
// same bytes, URLs and agents.
type data struct {
	bodies [][]byte // each file cut at robots.DefaultMaxBytes, the part every library is given
	strs   []string // the same bodies as strings, for grobotstxt's string API
	bytes  int64
	cases  []corpus.Case
	paths  []string // the path, params and query of each case's URL, for temoto's TestAgent
	// Each case's file parsed beforehand by each library, indexed like cases so
	// that finding it costs the same small amount for every library.
	ours    []*robots.Robots
	temotos []*robotstxt.RobotsData
	// temoto's errors on corpus files; such files decide as an empty file.
	temotoErrs int
}

var (
	dataOnce sync.Once
	dataVal  *data
	dataErr  error
)

func load(tb testing.TB) *data {
	tb.Helper()
	c := testenv.Corpus(tb) // skips or fails tb when there is no corpus
	dataOnce.Do(func() { dataVal, dataErr = prepare(c) })
	if dataErr != nil {
		tb.Fatal(dataErr)
	}
	return dataVal
}

func prepare(c *corpus.Corpus) (*data, error) {
	d := &data{cases: c.Cases()}
	// Crawlers read at most a limit of each file (RFC 9309 §2.5, 500 KiB for Google);
	// our Parse applies it itself, the other libraries do not. Cutting the three
	// larger files beforehand gives every library the same bytes to parse.
	for _, f := range c.Files {
		b := f.Body[:min(len(f.Body), robots.DefaultMaxBytes)]
		d.bodies = append(d.bodies, b)
		d.strs = append(d.strs, string(b))
		d.bytes += int64(len(b))
	}
	ours := map[int]*robots.Robots{}
	temotos := map[int]*robotstxt.RobotsData{}
	for i, cs := range d.cases {
		// The URLs come as slices of urls.txt, in its order, while the cases are
		// shuffled: reading them in case order would cost a cache miss each that no
		// crawler pays (it decides on a URL it has just built). Every library gets its
		// input strings allocated in case order, like temoto's paths below.
		d.cases[i].URL = strings.Clone(cs.URL)
		u, err := url.Parse(cs.URL)
		if err != nil {
			return nil, err
		}
		d.paths = append(d.paths, u.RequestURI())
		if _, ok := ours[cs.File]; !ok {
			ours[cs.File] = robots.Parse(d.bodies[cs.File])
			// temoto fails on files it cannot read; like a crawler using it, decide
			// with an empty file then (it allows everything).
			t, err := robotstxt.FromBytes(d.bodies[cs.File])
			if err != nil {
				d.temotoErrs++
				t, _ = robotstxt.FromBytes(nil)
			}
			temotos[cs.File] = t
		}
		d.ours = append(d.ours, ours[cs.File])
		d.temotos = append(d.temotos, temotos[cs.File])
	}
	return d, nil
}

// sampleEvery thins the cases for BenchmarkParseAndDecide, where each decision
// parses a whole file: every 20th case (about 4,300) keeps one op near a second
// for grobotstxt. Cases are in a shuffled order, so the sample is representative.
const sampleEvery = 20

// nopHandler receives grobotstxt's parse events and keeps nothing: the cheapest
// possible use of its parser, so its MB/s is an upper bound.
type nopHandler struct{}

func (nopHandler) HandleRobotsStart()                      {}
func (nopHandler) HandleRobotsEnd()                        {}
func (nopHandler) HandleUserAgent(int, string)             {}
func (nopHandler) HandleAllow(int, string)                 {}
func (nopHandler) HandleDisallow(int, string)              {}
func (nopHandler) HandleSitemap(int, string)               {}
func (nopHandler) HandleUnknownAction(int, string, string) {}

// BenchmarkParse parses every corpus file once per op.
func BenchmarkParse(b *testing.B) {
	d := load(b)
	parseEach(b, "lib=robots", d.bodies, d.bytes, func(body []byte) { robots.Parse(body) })
	parseEach(b, "lib=temoto", d.bodies, d.bytes, func(body []byte) { robotstxt.FromBytes(body) })
	parseEach(b, "lib=grobotstxt", d.strs, d.bytes, func(s string) { grobotstxt.Parse(s, nopHandler{}) })
}

// parseEach runs the sub-benchmark name: each op parses every one of files with
// parse, perOp bytes in all.
func parseEach[F any](b *testing.B, name string, files []F, perOp int64, parse func(F)) {
	b.Run(name, func(b *testing.B) {
		m := testenv.StartMeter(b)
		for range b.N {
			for _, f := range files {
				parse(f)
			}
		}
		m.Bytes(perOp)
	})
}

// BenchmarkDecide decides every real (file, URL, agent) case once per op, on files
// parsed beforehand. Every library makes exactly the same decisions per op, so
// their times compare directly.
func BenchmarkDecide(b *testing.B) {
	d := load(b)
	if d.temotoErrs > 0 {
		b.Logf("temoto could not parse %d of the files decided on; they decide as empty files", d.temotoErrs)
	}
	b.Run("lib=robots", func(b *testing.B) {
		m := testenv.StartMeter(b)
		for range b.N {
			for j := range d.cases {
				d.ours[j].Allowed(d.cases[j].Agent, d.cases[j].URL)
			}
		}
		m.Decisions(len(d.cases))
	})
	b.Run("lib=temoto", func(b *testing.B) {
		m := testenv.StartMeter(b)
		for range b.N {
			for j := range d.cases {
				// temoto takes a path; it is cut from the URL beforehand, which favours temoto.
				d.temotos[j].TestAgent(d.paths[j], d.cases[j].Agent)
			}
		}
		m.Decisions(len(d.cases))
	})
}

// BenchmarkParseAndDecide parses the host's file and makes one decision, for each
// case of a fixed sample per op; that is all grobotstxt offers (AgentAllowed parses
// the body on every call).
func BenchmarkParseAndDecide(b *testing.B) {
	d := load(b)
	decideSample(b, "lib=robots", d, func(cs *corpus.Case) { robots.Parse(d.bodies[cs.File]).Allowed(cs.Agent, cs.URL) })
	// DecideOnce is this module's answer to the same need: one pass over the body that
	// keeps only what decides the URL, like grobotstxt's AgentAllowed.
	decideSample(b, "lib=robots-once", d, func(cs *corpus.Case) { robots.CheckOnce(d.bodies[cs.File], cs.Agent, cs.URL) })
	decideSample(b, "lib=grobotstxt", d, func(cs *corpus.Case) { grobotstxt.AgentAllowed(d.strs[cs.File], cs.Agent, cs.URL) })
}

// decideSample runs the sub-benchmark name: each op calls decide on every
// sampleEvery-th case of d, one decision each.
func decideSample(b *testing.B, name string, d *data, decide func(cs *corpus.Case)) {
	n := (len(d.cases) + sampleEvery - 1) / sampleEvery
	b.Run(name, func(b *testing.B) {
		m := testenv.StartMeter(b)
		for range b.N {
			for j := 0; j < len(d.cases); j += sampleEvery {
				decide(&d.cases[j])
			}
		}
		m.Decisions(n)
	})
}

// crawlDecisions is how many decisions BenchmarkCrawl makes on each file after the
// first: a crawler that fetches a site's robots.txt decides on the URLs it finds there.
const crawlDecisions = 100

// BenchmarkCrawl is what a crawler does with a new file: parse it, decide for one
// agent (the first decision, which may compile the agent's rules), then decide
// crawlDecisions more URLs for that agent. It runs over the same sample of cases as
// BenchmarkParseAndDecide; the further URLs are the paths of the cases that follow,
// which are other hosts' (a path decides the same whatever its host).
func BenchmarkCrawl(b *testing.B) {
	d := load(b)
	n := (len(d.cases) + sampleEvery - 1) / sampleEvery
	b.Run("lib=robots", func(b *testing.B) {
		m := testenv.StartMeter(b)
		for range b.N {
			for j := 0; j < len(d.cases); j += sampleEvery {
				cs := &d.cases[j]
				r := robots.Parse(d.bodies[cs.File])
				r.Allowed(cs.Agent, cs.URL)
				for k := 1; k <= crawlDecisions; k++ {
					r.Allowed(cs.Agent, d.cases[(j+k)%len(d.cases)].URL)
				}
			}
		}
		m.Decisions(n * (1 + crawlDecisions))
	})
	b.Run("lib=temoto", func(b *testing.B) {
		m := testenv.StartMeter(b)
		for range b.N {
			for j := 0; j < len(d.cases); j += sampleEvery {
				cs := &d.cases[j]
				t, err := robotstxt.FromBytes(d.bodies[cs.File])
				if err != nil {
					t, _ = robotstxt.FromBytes(nil)
				}
				t.TestAgent(d.paths[j], cs.Agent)
				for k := 1; k <= crawlDecisions; k++ {
					t.TestAgent(d.paths[(j+k)%len(d.cases)], cs.Agent)
				}
			}
		}
		m.Decisions(n * (1 + crawlDecisions))
	})
}
