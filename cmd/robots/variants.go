package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gorobots/robots/audit"
	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/internal/counttext"
)

// The -hosts and -as flags of fetch and audit share their words and help.
const (
	hostsHelp = "other hosts of the site to compare (`LIST`, repeatable): www, bare, http, https, all, a subdomain's label, or a host"
	asHelp    = "fetch robots.txt as these crawlers too, with their documented User-Agent (`LIST`, repeatable): tokens, purposes, or major"
)

// variantsUsage is the part of fetch's and audit's usage that explains -hosts and
// -as.
const variantsUsage = `Several hosts, several crawlers: -hosts LIST fetches the robots.txt of other
hosts of the site too, as Search Console reports a site's top hosts: "www" and
"bare" (with and without www.), "http" and "https" (the host over each scheme),
"all" (www and bare, each over http and https), a subdomain's label ("shop" for
shop.example.com), or any host or host:port (at most 20 hosts). -as LIST fetches
every host's robots.txt again as each crawler named (a token, a purpose for its
major crawlers, or "major": those whose operators document a User-Agent, and
the major AI crawlers), with the User-Agent header its operator documents
("robots crawlers NAME" gives it and its page; for a crawler whose operator
documents only the token, "Mozilla/5.0 (compatible; TOKEN)"), at most 250
fetches in all, 4 at a time. The report lists each fetch (status, where the
redirects led, which file: the same number, the same bytes; an HTML page where a
robots.txt should be) and, for each crawler asked about, where the fetches tell
it different things: across the hosts, and on one host between what the crawler
receives and what this tool receives. Both lists are repeatable, with commas
between entries.
`

// commaList is a repeatable flag whose values may hold several entries
// separated by commas.
type commaList []string

func (l *commaList) String() string { return strings.Join(*l, ",") }
func (l *commaList) Set(v string) error {
	for _, e := range strings.Split(v, ",") {
		if e = strings.TrimSpace(e); e != "" {
			*l = append(*l, e)
		}
	}
	return nil
}

// variantFlags adds -hosts and -as to fs.
func variantFlags(fs *flag.FlagSet) (hosts, as *commaList) {
	hosts, as = new(commaList), new(commaList)
	fs.Var(hosts, "hosts", hostsHelp)
	fs.Var(as, "as", asHelp)
	return hosts, as
}

// variantName names fetch i of v: its host, and the crawler it was fetched as.
func variantName(v *audit.Variants, i int) string {
	f := v.Fetches[i]
	if f.As == "" {
		return f.Host
	}
	return f.Host + " as " + f.As
}

// writeVariants writes what the hosts and crawlers of v receive, then where it
// tells a crawler different things.
func writeVariants(w io.Writer, v *audit.Variants) {
	if v == nil {
		return
	}
	fmt.Fprintf(w, "\nHosts and crawlers: %s of robots.txt, %s\n", counttext.Plural(len(v.Fetches), "fetch", "fetches"), counttext.Plural(v.Files, "different file", "different files"))
	width := 0
	for i := range v.Fetches {
		width = max(width, len(variantName(v, i)))
	}
	for i, f := range v.Fetches {
		fmt.Fprintf(w, "  %-*s  %s", width, variantName(v, i), f.Origin)
		if f.RedirectsTo != "" {
			fmt.Fprintf(w, " → %s", f.RedirectsTo)
		}
		switch {
		case f.Status == 0:
			fmt.Fprintf(w, ": no answer, %s", f.Outcome)
		case f.File > 0:
			fmt.Fprintf(w, ": %d, file %d (%s, sha256 %s)", f.Status, f.File, counttext.Plural(int(f.Bytes), "byte", "bytes"), f.SHA256[:12])
		default:
			fmt.Fprintf(w, ": %d, %s", f.Status, f.Outcome)
		}
		if f.Page {
			fmt.Fprint(w, ", an HTML page, not a robots.txt")
		}
		if f.Effect != fetch.ObeyRules {
			fmt.Fprintf(w, ": %s", meaning(f.Effect))
		}
		if f.Error != "" {
			fmt.Fprintf(w, " (%s)", f.Error)
		}
		fmt.Fprintln(w)
	}
	if len(v.Differences) == 0 {
		fmt.Fprintln(w, "  Every fetch tells each crawler asked about the same.")
		return
	}
	for _, d := range v.Differences {
		if d.Host == "" {
			fmt.Fprintf(w, "  %s is told different things by the hosts:\n", d.Agent)
		} else {
			fmt.Fprintf(w, "  %s receives another robots.txt than this tool on %s:\n", d.Agent, d.Host)
		}
		for _, r := range d.Readings {
			names := make([]string, len(r.Fetches))
			for i, f := range r.Fetches {
				names[i] = variantName(v, f)
			}
			root := "may fetch /"
			if !r.RootAllowed {
				root = "may not fetch /"
			}
			fmt.Fprintf(w, "    %s: %s (%s)\n", strings.Join(names, ", "), r.Says, root)
		}
	}
}
