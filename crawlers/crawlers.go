// Package crawlers is a registry of web crawlers: for each, the product token its
// operator documents for robots.txt user-agent lines, the operator, what its
// fetches are for ([Purpose]), the operator's documentation and whether it
// honours Crawl-delay.
//
// The tools share it: "robots lint" warns when a group blocks a [Major] crawler,
// "robots explain", "robots diff", "robots audit" and the web tester of
// "robots serve" check the major crawlers by default ([Names]), "robots crawlers"
// lists the registry, filtered by purpose ([WithPurpose]).
//
// # Sources
//
// The search, SEO, social, archive and ads crawlers, and the AI crawlers among the
// major ones, are written by hand in curated.go, each fact taken from the
// operator's documentation (linked in [Crawler.URL]). The other AI crawlers come
// from the ai.robots.txt project's robots.json (MIT licence, copied with its
// provenance in data/ai.robots.txt/), turned into airobots_gen.go by
// "go generate ./crawlers" (data/ai.robots.txt/README.md gives how that list's
// "function" texts map to purposes, and how to refresh it), with
// data/operators.tsv naming the operators robots.json leaves out. Where both
// name a crawler, the hand-written entry wins.
//
// How each crawler can be verified (its operator's IP-range lists, reverse-DNS
// suffixes, Web Bot Auth key directory: [Verification], used by package verify)
// and the curated crawlers' stance on robots.txt ([Stance]) are kept in
// data/verification.tsv and data/stances.tsv, each fact with its page and the
// date it was recorded; "go generate ./crawlers" turns them into
// documented_gen.go. A curated crawler without a stance there takes the one
// ai.robots.txt's "respect" field gives.
//
// # Purposes
//
// A crawler has one or more purposes. The AI purposes separate what a site owner
// decides separately: [AITrain] (the pages train models), [AISearch] (the pages
// are indexed to answer questions) and [AIUser] (a page is fetched because a person
// asked an assistant or agent for it). Google and Bing use the index of their
// search crawlers (Googlebot, bingbot) for the AI answers in their search results
// too; no separate token controls that, so those crawlers are listed as [Search].
package crawlers

//go:generate go run ./internal/gen -in data/ai.robots.txt/robots.json -operators data/operators.tsv -out airobots_gen.go -verification data/verification.tsv -stances data/stances.tsv -documented-out documented_gen.go

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Purpose says what a crawler's fetches are for.
type Purpose string

const (
	Search   Purpose = "search"    // builds a web search index
	AITrain  Purpose = "ai-train"  // collects data to train AI models
	AISearch Purpose = "ai-search" // indexes pages for AI answers / AI search
	AIUser   Purpose = "ai-user"   // fetches a page on a person's request (assistants, agents)
	SEO      Purpose = "seo"       // backlink, ranking and site-audit tools
	Social   Purpose = "social"    // link previews for social networks and messengers
	Archive  Purpose = "archive"   // web archives
	Ads      Purpose = "ads"       // checks ad landing pages or ad-supported pages
	Other    Purpose = "other"     // anything else: feeds, monitoring, verification, research
)

// purposes is the documented set, in the order Purposes returns it.
var purposes = []Purpose{Search, AITrain, AISearch, AIUser, SEO, Social, Archive, Ads, Other}

// Purposes returns the documented purposes, in the order of their declaration.
func Purposes() []Purpose { return slices.Clone(purposes) }

// ParsePurpose returns the purpose named s, as Purposes spells it (case-insensitive,
// surrounding spaces ignored).
func ParsePurpose(s string) (Purpose, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, p := range purposes {
		if string(p) == t {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown crawler purpose %q (want one of %s)", s, purposeList())
}

func purposeList() string {
	names := make([]string, len(purposes))
	for i, p := range purposes {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// IsAI reports whether p is one of the AI purposes: AITrain, AISearch or AIUser.
func (p Purpose) IsAI() bool { return p == AITrain || p == AISearch || p == AIUser }

// Support says whether a crawler honours a robots.txt extension, as its operator
// documents it.
type Support string

const (
	Unknown  Support = ""         // the operator does not say
	Honoured Support = "honoured" // the operator says the crawler obeys it
	Ignored  Support = "ignored"  // the operator says the crawler does not
)

// Crawler is one entry of the registry.
type Crawler struct {
	// Name is the product token the operator documents for user-agent lines: no
	// space, no '/'. Some still hold characters RFC 9309's tokens lack ("MJ12bot",
	// "archive.org_bot"): a parser that reads tokens as Google does matches them
	// only by their leading letters, which is itself worth telling the user.
	Name string
	// UserAgent is how the crawler names itself where that is more than Name: the
	// words its User-Agent header holds ("Sogou web spider", "MistralAI-User/1.0").
	// "" when Name is all.
	UserAgent string
	// Operator is who runs it; "unknown" when nothing says, and then
	// OperatorSource says why.
	Operator string
	// OperatorSource says where Operator comes from when not from the page in
	// URL: a quote of the registry's data, or why it is unknown. "" otherwise.
	OperatorSource string
	// Purposes are what its fetches are for, at least one, the main one first.
	Purposes []Purpose
	URL      string // the operator's documentation of the crawler, "" when none is published
	// CrawlDelay says whether it honours Crawl-delay, as its operator documents it:
	// Google's crawlers ignore it, Yandex's since February 2018, bingbot honours it.
	CrawlDelay Support
	// Major marks the default set the tools check: the crawlers site owners most
	// often name in robots.txt.
	Major bool
	// Robots is its documented stance on robots.txt, and RobotsURL the page that
	// says so.
	Robots    Stance
	RobotsURL string
	// Verify says how a request claiming to be this crawler can be checked.
	Verify Verification
	// Source says where the entry comes from: SourceCurated or SourceAIRobots.
	Source string
}

// The sources of entries, as Crawler.Source names them.
const (
	// SourceCurated: written by hand from the operators' pages (curated.go), the
	// verification facts in verification.go, each with its page and date.
	SourceCurated = "curated"
	// SourceAIRobots: the ai.robots.txt project's robots.json, at the commit
	// data/ai.robots.txt/README.md names, with data/operators.tsv.
	SourceAIRobots = "ai.robots.txt"
)

// genEntry is one line of airobots_gen.go.
type genEntry struct {
	Name, UserAgent, Operator, OperatorSource string
	Purposes                                  []Purpose
	URL                                       string
	Robots                                    Stance
	RobotsURL                                 string
}

// entry is one line of the tables curated.go and airobots_gen.go: the facts
// written one line per crawler; load adds the rest from the other tables.
type entry struct {
	Name       string
	Operator   string
	Purposes   []Purpose
	URL        string
	CrawlDelay Support
	Major      bool
}

// Stance is what a crawler's operator documents about obeying robots.txt.
type Stance string

const (
	StanceUnknown Stance = ""        // nothing documented
	Obeys         Stance = "obeys"   // the operator says the crawler obeys robots.txt
	Ignores       Stance = "ignores" // documented as not obeying it (by the operator, or ai.robots.txt's "respect")
	// UserTriggered: the crawler fetches what a person asked for, and its operator
	// says robots.txt rules may not apply to such fetches.
	UserTriggered Stance = "user-triggered"
)

// Verification says how a request that claims to come from a crawler can be
// checked, as its operator documents it. The zero value means the operator
// publishes no way: such a crawler can never be shown to be an impostor.
type Verification struct {
	// Ranges are the URLs of the operator's IP-range lists (JSON, in the shape of
	// Google's googlebot.json: {"prefixes": [{"ipv4Prefix": …}, {"ipv6Prefix": …}]}).
	Ranges []string
	// DNS are the host-name suffixes a reverse lookup of the crawler's addresses
	// ends in ("googlebot.com" matches crawl-66-249-66-1.googlebot.com), which a
	// forward lookup of that name must confirm.
	DNS []string
	// KeyDirectory is the Signature-Agent of Web Bot Auth: the origin whose
	// /.well-known/http-message-signatures-directory holds the keys the crawler
	// signs its requests with.
	KeyDirectory string
	// Source is the operator's page that documents the above, and Read the date
	// (YYYY-MM-DD) it was last read for this registry.
	Source, Read string
}

// Known reports whether v names any way to verify the crawler.
func (v Verification) Known() bool {
	return len(v.Ranges) > 0 || len(v.DNS) > 0 || v.KeyDirectory != ""
}

// Has reports whether c has purpose p.
func (c Crawler) Has(p Purpose) bool { return slices.Contains(c.Purposes, p) }

func (c Crawler) clone() Crawler {
	c.Purposes = slices.Clone(c.Purposes)
	c.Verify.Ranges = slices.Clone(c.Verify.Ranges)
	c.Verify.DNS = slices.Clone(c.Verify.DNS)
	return c
}

// registry is the merged list: the hand-written entries in their order, then those
// of the generated list that no hand-written entry names.
type registry struct {
	all    []Crawler      // major first (in curated order), then the rest by name
	byName map[string]int // lower-cased Name and UserAgent → index in all
}

var load = sync.OnceValue(func() *registry {
	r := &registry{byName: make(map[string]int, len(curated)+len(aiRobots))}
	gen := make(map[string]*genEntry, len(aiRobots))
	for i := range aiRobots {
		gen[strings.ToLower(aiRobots[i].Name)] = &aiRobots[i]
	}
	add := func(c Crawler) {
		k := strings.ToLower(c.Name)
		if _, dup := r.byName[k]; dup {
			return
		}
		c.Verify = verification[c.Name]
		r.byName[k] = len(r.all)
		if ua := strings.ToLower(c.UserAgent); ua != "" {
			if _, dup := r.byName[ua]; !dup {
				r.byName[ua] = len(r.all)
			}
		}
		r.all = append(r.all, c)
	}
	for _, e := range curated {
		c := Crawler{Name: e.Name, UserAgent: userAgents[e.Name], Operator: e.Operator, Purposes: e.Purposes,
			URL: e.URL, CrawlDelay: e.CrawlDelay, Major: e.Major, Source: SourceCurated}
		if s, ok := stances[e.Name]; ok {
			c.Robots, c.RobotsURL = s.stance, s.url
		} else if g := gen[strings.ToLower(e.Name)]; g != nil {
			// The operator's pages say nothing written here; ai.robots.txt may.
			c.Robots, c.RobotsURL = g.Robots, g.RobotsURL
		}
		add(c)
	}
	for _, e := range aiRobots {
		add(Crawler{Name: e.Name, UserAgent: e.UserAgent, Operator: e.Operator, OperatorSource: e.OperatorSource,
			Purposes: e.Purposes, URL: e.URL, Robots: e.Robots, RobotsURL: e.RobotsURL, Source: SourceAIRobots})
	}
	return r
})

// All returns every entry of the registry, copies: the major crawlers first, in the
// order of Major, then the others.
func All() []Crawler {
	r := load()
	out := make([]Crawler, len(r.all))
	for i, c := range r.all {
		out[i] = c.clone()
	}
	return out
}

// Major returns the default set the tools check, copies, ordered by operator, then
// by how often Common Crawl saw the name in robots.txt files.
func Major() []Crawler {
	var out []Crawler
	for _, c := range load().all {
		if c.Major {
			out = append(out, c.clone())
		}
	}
	return out
}

// Names returns the names of the major crawlers in the order of Major.
func Names() []string {
	var out []string
	for _, c := range load().all {
		if c.Major {
			out = append(out, c.Name)
		}
	}
	return out
}

// Lookup returns the entry whose Name, or else UserAgent, equals name, ignoring
// case ("Sogou web spider" finds Sogou).
func Lookup(name string) (Crawler, bool) {
	r := load()
	i, ok := r.byName[strings.ToLower(name)]
	if !ok {
		return Crawler{}, false
	}
	return r.all[i].clone(), true
}

// WithPurpose returns, in the order of All, every entry having purpose p.
func WithPurpose(p Purpose) []Crawler {
	var out []Crawler
	for _, c := range load().all {
		if c.Has(p) {
			out = append(out, c.clone())
		}
	}
	return out
}
