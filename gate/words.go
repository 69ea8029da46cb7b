package gate

import (
	"fmt"
	"strings"

	"github.com/gorobots/robots/crawlers"
)

// Words is a Policy as its users write it. The -gate-* flags of robots serve and
// the robots_gate Caddyfile directive (docs/gate.md) both read their words into
// Words and Words.Policy reads those, so the two accept the same words and name
// the same mistakes.
type Words struct {
	// Enforce: crawler names (or product tokens the registry does not know) and
	// purposes (ai-train, search, ...); a word may hold several, separated by
	// commas. None: every crawler of the registry.
	Enforce    []string
	Disallowed Word // log (default) or deny
	CrawlDelay Word // log (default), deny or 429
	Impostor   Word // log (default) or deny
	Unverified Word // judge (default) or log
	Fail       Word // open (default) or closed
}

// Word is one word of the policy and the option the user gave it by (a flag such
// as -gate-fail, a Caddyfile option such as fail), which errors name. An empty
// Value stands for the option's default; case and surrounding space are ignored.
type Word struct{ Option, Value string }

// Policy reads the words. An error names the option, the word and the words it
// accepts, as in: -gate-fail "maybe": want open or closed.
func (w Words) Policy() (Policy, error) {
	var p Policy
	for _, list := range w.Enforce {
		for _, n := range strings.Split(list, ",") {
			if n = strings.TrimSpace(n); n == "" {
				continue
			}
			if pp, err := crawlers.ParsePurpose(n); err == nil {
				p.Purposes = append(p.Purposes, pp)
			} else {
				p.Crawlers = append(p.Crawlers, n)
			}
		}
	}
	var err error
	if p.Disallowed, err = w.Disallowed.action("disallowed", false); err != nil {
		return Policy{}, err
	}
	if p.CrawlDelay, err = w.CrawlDelay.action("crawl-delay", true); err != nil {
		return Policy{}, err
	}
	if p.Impostor, err = w.Impostor.action("impostor", false); err != nil {
		return Policy{}, err
	}
	if err = p.checkActions(w); err != nil {
		return Policy{}, err
	}
	if p.LogUnverified, err = w.Unverified.choice("unverified", "judge", "log"); err != nil {
		return Policy{}, err
	}
	if p.FailClosed, err = w.Fail.choice("fail", "open", "closed"); err != nil {
		return Policy{}, err
	}
	return p, nil
}

// name is the option's name for errors, or def when the caller gave none.
func (w Word) name(def string) string {
	if w.Option != "" {
		return w.Option
	}
	return def
}

// action reads an action word (ParseAction's words); the error lists 429 among
// the words accepted when slow (the option is the crawl-delay one).
func (w Word) action(def string, slow bool) (Action, error) {
	if strings.TrimSpace(w.Value) == "" {
		return Log, nil
	}
	a, err := ParseAction(w.Value)
	switch {
	case err != nil && slow:
		return 0, fmt.Errorf("%s %q: want log, deny or 429", w.name(def), w.Value)
	case err != nil:
		return 0, fmt.Errorf("%s %q: want log or deny", w.name(def), w.Value)
	}
	return a, nil
}

// checkActions is the rule that 429 (Slow) is for Crawl-delay only. Its error
// names the options as w does (Words{}: by their default names).
func (p Policy) checkActions(w Words) error {
	for _, a := range [...]struct {
		act Action
		w   Word
		def string
	}{{p.Disallowed, w.Disallowed, "disallowed"}, {p.Impostor, w.Impostor, "impostor"}} {
		if a.act == Slow {
			word := a.w.Value
			if word == "" {
				word = Slow.String()
			}
			return fmt.Errorf("%s %q: want log or deny (429 is for %s)", a.w.name(a.def), word, w.CrawlDelay.name("Crawl-delay"))
		}
	}
	return nil
}

// choice reads a word that is either off (the default) or on, reporting whether
// it is on.
func (w Word) choice(def, off, on string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(w.Value)) {
	case "", off:
		return false, nil
	case on:
		return true, nil
	}
	return false, fmt.Errorf("%s %q: want %s or %s", w.name(def), w.Value, off, on)
}
