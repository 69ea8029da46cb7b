// Package signals combines every signal a site gives about the use of its content into
// one answer per purpose — search, AI training, AI input (use), AI search,
// user-triggered fetches — for one crawler and one URL, and names each contradiction
// between them: robots.txt (may the crawler fetch the URL?), its Content-Usage and
// Content-Signal lines with the response's own fields (package robots), the RSL
// licences of its License lines (package rsl), TDMRep (package tdmrep) and the
// page-level rules (package robotstag).
//
// Each signal speaks to a purpose or says nothing of it: Content-Usage's train-ai to
// AI training, its ai-use to AI input and AI search, its search to search;
// Content-Signal's ai-train, ai-input and search likewise; RSL's ai-train, ai-input,
// ai-index and search usages; a TDM reservation to AI training and AI input (text and
// data mining); noindex to search and AI search, nosnippet to AI input and AI search;
// RSL's ai-index to AI search
// (Google: it keeps a page out of AI Overviews). The answer is blocked when robots.txt
// does not let the crawler fetch the URL; otherwise the most restrictive of what the
// signals say (draft-ietf-aipref-vocab §5.1's rule, applied across signals): disallowed
// when one disallows, licensed when one permits only on terms (an RSL payment or
// condition) and none disallows, allowed when one allows and none restricts, unknown
// when nothing says.
package signals

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/robotstag"
	"github.com/gorobots/robots/rsl"
	"github.com/gorobots/robots/tdmrep"
)

// Purpose is what a use of the content is for.
type Purpose string

// The purposes answered, in the order Answers gives them.
const (
	Search   Purpose = "search"    // a web search index and results
	AITrain  Purpose = "ai-train"  // training AI models
	AIInput  Purpose = "ai-input"  // input to AI models: grounding, RAG, generated answers (aipref's ai-use)
	AISearch Purpose = "ai-search" // AI search and answer engines' indexes
	AIUser   Purpose = "ai-user"   // fetches on a person's request (assistants, agents)
)

// Purposes returns the purposes in order.
func Purposes() []Purpose { return []Purpose{Search, AITrain, AIInput, AISearch, AIUser} }

// Verdict is what a signal, or all of them, say of a purpose.
type Verdict string

const (
	Unknown    Verdict = "unknown"    // nothing says
	Allowed    Verdict = "allowed"    // allowed, free
	Licensed   Verdict = "licensed"   // permitted on terms: an RSL payment or condition
	Disallowed Verdict = "disallowed" // a signal disallows the use
	Blocked    Verdict = "blocked"    // robots.txt does not let the crawler fetch the URL
)

func rank(v Verdict) int {
	switch v {
	case Allowed:
		return 1
	case Licensed:
		return 2
	case Disallowed:
		return 3
	case Blocked:
		return 4
	}
	return 0
}

// Signal is what one signal says of a purpose.
type Signal struct {
	Source  string  `json:"source"` // robots.txt, content-usage, content-signal, rsl, tdmrep, robots-tag
	Says    string  `json:"says"`
	Verdict Verdict `json:"verdict"`
}

// Answer is the one answer for a purpose, crawler and URL.
type Answer struct {
	Purpose Purpose  `json:"purpose"`
	Agent   string   `json:"agent"`
	URL     string   `json:"url"`
	Verdict Verdict  `json:"verdict"`
	Signals []Signal `json:"signals"` // those that say something, robots.txt first
	// Contradictions name each pair of signals that disagree ("Content-Usage says
	// train-ai=n; the RSL licence permits ai-train for payment").
	Contradictions []string `json:"contradictions"`
	// Readings says when the answer depends on the reading of robots.txt: Google's
	// and RFC 9309's (with draft-ietf-aipref-attach) give the crawler different usage
	// preferences. "" when they agree.
	Readings string `json:"readings,omitempty"`
}

// Site is what is known of a site: its robots.txt (Robots nil: none, everything
// allowed; Body the file, for the other reading), its RSL licences and tdmrep.json.
type Site struct {
	Robots   *robots.Robots
	Body     string
	Licenses []License
	TDM      *tdmrep.File
	// Other is Body in the other reading (RFC 9309's for Google's, and back), when the
	// caller has it (OtherReading): Answers parses Body again on every call without it.
	Other *robots.Robots
}

// OtherReading returns rb's file, body, in the other reading (RFC 9309's with
// draft-ietf-aipref-attach for Google's, and back) when it states usage preferences,
// for Site.Other; nil otherwise (the readings cannot differ) and for the legacy
// dialects.
func OtherReading(rb *robots.Robots, body string) *robots.Robots {
	if rb == nil || body == "" || !rb.StatesUsage() {
		return nil
	}
	switch rb.Dialect() {
	case robots.Google:
		return robots.ParseString(body, robots.WithDialect(robots.RFC9309))
	case robots.RFC9309:
		return robots.ParseString(body, robots.WithDialect(robots.Google))
	}
	return nil
}

// License is one licence of the site's License lines; Doc nil when Err says why it
// could not be had.
type License struct {
	URL string
	Doc *rsl.Document
	Err string
}

// Page is what a response for the URL said: its header and, for an HTML page, its
// body (nil when the page was not fetched: only the site's files speak then).
type Page struct {
	Header http.Header
	Body   []byte
}

// Answers returns one answer per purpose (Purposes' order) for the crawler with
// product token agent at rawURL.
func Answers(s Site, agent, rawURL string, page *Page, now time.Time) []Answer {
	rb := s.Robots
	if rb == nil {
		rb = robots.ParseString("") // no file: everything allowed, nothing preferred
	}
	d, u := rb.Check(agent, rawURL), rb.Usage(agent, rawURL)
	var rules robotstag.Rules
	var tdm tdmrep.Reservation
	if s.TDM != nil {
		tdm = s.TDM.Lookup(rawURL)
	}
	if page != nil {
		u = u.WithHeader(page.Header)
		steps := []tdmrep.Reservation{tdm, tdmrep.FromHeader(page.Header)}
		if page.Body != nil {
			rules, _ = robotstag.Read([]string{agent}, page.Header, strings.NewReader(string(page.Body)))
			meta, _ := tdmrep.FromHTML(strings.NewReader(string(page.Body)))
			steps = append(steps, meta)
		} else {
			rules = robotstag.FromHeader([]string{agent}, page.Header)
		}
		tdm = tdmrep.Resolve(steps...)
	}
	readings := otherReading(s, agent, rawURL, u)
	var out []Answer
	for _, p := range Purposes() {
		a := Answer{Purpose: p, Agent: agent, URL: rawURL, Signals: []Signal{}, Contradictions: []string{}, Readings: readings}
		fetch := Signal{Source: "robots.txt", Verdict: Allowed, Says: "lets " + agent + " fetch the URL"}
		if d.Rule.Line > 0 {
			fetch.Says += fmt.Sprintf(" (line %d: %s)", d.Rule.Line, d.Rule)
		}
		if !d.Allowed {
			fetch = Signal{Source: "robots.txt", Verdict: Blocked, Says: fmt.Sprintf("does not let %s fetch the URL (line %d: %s)", agent, d.Rule.Line, d.Rule)}
		}
		a.Signals = append(a.Signals, fetch)
		a.Signals = append(a.Signals, usageSignals(p, u)...)
		a.Signals = append(a.Signals, licenseSignals(p, s.Licenses, rawURL)...)
		if sig, ok := tdmSignal(p, tdm); ok {
			a.Signals = append(a.Signals, sig)
		}
		a.Signals = append(a.Signals, ruleSignals(p, rules, now)...)
		a.Verdict = combine(a.Signals)
		a.Contradictions = contradictions(p, a.Signals, !d.Allowed, rules)
		out = append(out, a)
	}
	return out
}

// Unreachable returns the answers for a site whose robots.txt could not be fetched
// (RFC 9309 §2.3.1.4: crawlers may fetch nothing of it for now): blocked for every
// purpose, robots.txt the one signal, why saying what happened.
func Unreachable(agent, rawURL, why string) []Answer {
	var out []Answer
	for _, p := range Purposes() {
		out = append(out, Answer{Purpose: p, Agent: agent, URL: rawURL, Verdict: Blocked, Contradictions: []string{},
			Signals: []Signal{{Source: "robots.txt", Verdict: Blocked, Says: "could not be fetched (" + why + "): " + agent + " may fetch nothing of the site for now"}}})
	}
	return out
}

func combine(sigs []Signal) Verdict {
	if sigs[0].Verdict == Blocked {
		return Blocked
	}
	v := Unknown
	for _, s := range sigs[1:] {
		if rank(s.Verdict) > rank(v) {
			v = s.Verdict
		}
	}
	return v
}

// usage labels: which Content-Usage category and Content-Signal signal speak to p.
func usageSignals(p Purpose, u robots.Usage) []Signal {
	var cats []robots.CategoryLabel
	var sigs []robots.SignalLabel
	switch p {
	case Search:
		cats, sigs = []robots.CategoryLabel{robots.Search}, []robots.SignalLabel{robots.SignalSearch}
	case AITrain:
		cats, sigs = []robots.CategoryLabel{robots.TrainAI}, []robots.SignalLabel{robots.SignalAITrain}
	case AIInput, AISearch:
		cats, sigs = []robots.CategoryLabel{robots.AIUse}, []robots.SignalLabel{robots.SignalAIInput}
	case AIUser:
		// ai-use excludes assets the user provides directly; whether a URL the user
		// names counts is open (aipref issue 249): only Content-Signal's ai-input speaks.
		sigs = []robots.SignalLabel{robots.SignalAIInput}
	}
	var out []Signal
	for _, c := range cats {
		if st := u.Category(c); st.Preference != robots.UsageUnknown {
			out = append(out, Signal{Source: "content-usage", Says: stated(st, "y", "n"), Verdict: prefVerdict(st.Preference)})
		}
	}
	for _, s := range sigs {
		if st := u.Signal(s); st.Preference != robots.UsageUnknown {
			out = append(out, Signal{Source: "content-signal", Says: stated(st, "yes", "no"), Verdict: prefVerdict(st.Preference)})
		}
	}
	return out
}

func stated(st robots.Stated, yes, no string) string {
	tok := yes
	if st.Preference == robots.UsageDisallowed {
		tok = no
	}
	s := st.Label + "=" + tok
	switch {
	case st.Line > 0 && st.Header:
		s += fmt.Sprintf(" (line %d and the response header)", st.Line)
	case st.Line > 0:
		s += fmt.Sprintf(" (line %d)", st.Line)
	case st.Header:
		s += " (response header)"
	}
	return s
}

func prefVerdict(p robots.Preference) Verdict {
	if p == robots.UsageDisallowed {
		return Disallowed
	}
	return Allowed
}

// rslUsages are the RSL usages that speak to each purpose.
func rslUsages(p Purpose) []rsl.Usage {
	switch p {
	case Search:
		return []rsl.Usage{rsl.Search}
	case AITrain:
		return []rsl.Usage{rsl.AITrain}
	case AIInput, AIUser:
		return []rsl.Usage{rsl.AIInput}
	case AISearch:
		return []rsl.Usage{rsl.AIIndex}
	}
	return nil
}

func licenseSignals(p Purpose, ls []License, rawURL string) []Signal {
	var out []Signal
	for _, l := range ls {
		if l.Doc == nil {
			out = append(out, Signal{Source: "rsl", Verdict: Unknown, Says: "the licence " + l.URL + " cannot be read: " + l.Err})
			continue
		}
		for _, us := range rslUsages(p) {
			v := l.Doc.Check(rawURL, rsl.Query{Usage: us})
			sig := Signal{Source: "rsl"}
			switch v.Answer {
			case rsl.Unknown:
				if v.Content == "" {
					continue // the licence says nothing of this URL
				}
				sig.Verdict, sig.Says = Unknown, fmt.Sprintf("the licence %s: %s", l.URL, v.Reason)
			case rsl.Prohibited:
				sig.Verdict, sig.Says = Disallowed, fmt.Sprintf("the licence %s does not permit %s", l.URL, us)
			case rsl.Permitted:
				free := len(v.Conditions) == 0
				var pay []string
				for _, p := range v.Payments {
					pay = append(pay, p.String())
					if p.Type != "free" {
						free = false
					}
				}
				sig.Verdict, sig.Says = Allowed, fmt.Sprintf("the licence %s permits %s (payment: %s)", l.URL, us, strings.Join(pay, "; "))
				if len(v.Conditions) > 0 {
					sig.Says += " for " + strings.Join(v.Conditions, "; ")
				}
				if !free {
					sig.Verdict = Licensed
				}
			}
			out = append(out, sig)
		}
	}
	return out
}

func tdmSignal(p Purpose, r tdmrep.Reservation) (Signal, bool) {
	if (p != AITrain && p != AIInput) || r.Reserved == nil {
		return Signal{}, false
	}
	if *r.Reserved {
		s := Signal{Source: "tdmrep", Verdict: Disallowed, Says: "text and data mining reserved (" + r.Source + ")"}
		if r.Policy != "" {
			s.Verdict, s.Says = Licensed, "text and data mining reserved, with a TDM policy "+r.Policy+" ("+r.Source+")"
		}
		return s, true
	}
	return Signal{Source: "tdmrep", Verdict: Allowed, Says: "text and data mining not reserved (" + r.Source + ")"}, true
}

func ruleSignals(p Purpose, r robotstag.Rules, now time.Time) []Signal {
	var out []Signal
	where := func(rule string) string {
		for _, f := range r.Found {
			if strings.HasPrefix(strings.ToLower(f.Rule), rule) || strings.ToLower(f.Rule) == "none" {
				return f.Source
			}
		}
		return "page"
	}
	if (p == Search || p == AISearch) && !r.Indexable(now) {
		out = append(out, Signal{Source: "robots-tag", Verdict: Disallowed, Says: "noindex (" + where("noindex") + ")"})
	}
	if (p == AIInput || p == AISearch) && r.NoSnippet {
		out = append(out, Signal{Source: "robots-tag", Verdict: Disallowed, Says: "nosnippet (" + where("nosnippet") + ", or max-snippet:0): no text of the page in AI answers"})
	}
	return out
}

// contradictions names the pairs of signals that disagree on p, and the rules robots.txt
// keeps crawlers from seeing.
func contradictions(p Purpose, sigs []Signal, blocked bool, rules robotstag.Rules) []string {
	out := []string{}
	if blocked {
		if (p == Search || p == AISearch) && rules.NoIndex {
			out = append(out, "robots.txt keeps the crawler from the page, so it never sees the page's noindex: the URL can still be indexed from links (\"Indexed, though blocked by robots.txt\")")
		}
		return out
	}
	for i, a := range sigs[1:] {
		for _, b := range sigs[i+2:] {
			if a.Source == b.Source {
				continue // two licences, or Content-Usage's line and header: combined already
			}
			lo, hi := a, b
			if rank(lo.Verdict) > rank(hi.Verdict) {
				lo, hi = hi, lo
			}
			switch {
			case hi.Verdict == Disallowed && lo.Verdict == Allowed:
				out = append(out, fmt.Sprintf("%s says %s; %s says %s", name(hi.Source), hi.Says, name(lo.Source), lo.Says))
			case hi.Verdict == Disallowed && lo.Verdict == Licensed:
				out = append(out, fmt.Sprintf("%s says %s; %s says %s (a use disallowed unless licensed)", name(hi.Source), hi.Says, name(lo.Source), lo.Says))
			}
		}
	}
	return out
}

func name(source string) string {
	switch source {
	case "content-usage":
		return "Content-Usage"
	case "content-signal":
		return "Content-Signal"
	case "rsl":
		return "RSL"
	case "tdmrep":
		return "TDMRep"
	case "robots-tag":
		return "the page's robots rule"
	}
	return source
}

// otherReading says whether the other reading of robots.txt (RFC 9309 with
// draft-ietf-aipref-attach against Google's) gives the crawler other usage
// preferences at the URL.
func otherReading(s Site, agent, rawURL string, u robots.Usage) string {
	if s.Robots == nil || s.Body == "" && s.Other == nil {
		return ""
	}
	alt := s.Other
	if alt == nil {
		if alt = OtherReading(s.Robots, s.Body); alt == nil {
			return ""
		}
	}
	base := s.Robots.Usage(agent, rawURL)
	other := alt.Usage(agent, rawURL)
	if base.String() == other.String() {
		return ""
	}
	say := func(x robots.Usage) string {
		if s := x.String(); s != "" {
			return s
		}
		return "nothing"
	}
	return fmt.Sprintf("the readings differ: %s reads %s, %s reads %s", s.Robots.Dialect(), say(base), alt.Dialect(), say(other))
}
