package accesslog

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Report returns what the Analyzer has read so far. The Analyzer can go on reading
// after it.
func (a *Analyzer) Report() *Report {
	rep := a.rep
	rep.Files = slices.Clone(a.rep.Files)
	rep.SkippedLines = slices.Clone(a.rep.SkippedLines)
	if a.rep.SkippedBy != nil {
		rep.SkippedBy = make(map[string]int64, len(a.rep.SkippedBy))
		for k, v := range a.rep.SkippedBy {
			rep.SkippedBy[k] = v
		}
	}
	rep.Crawlers = make([]Row, 0, len(a.rows))
	for _, rs := range a.rows {
		row := rs.row
		row.Status = make(map[string]int64, len(rs.status))
		for code, n := range rs.status {
			row.Status[statusKey(code)] += n
		}
		keys := make([]ruleKey, 0, len(rs.rules))
		for k := range rs.rules {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y ruleKey) int {
			if keyLess(x, y) {
				return -1
			}
			if keyLess(y, x) {
				return 1
			}
			return 0
		})
		row.Rules = make([]RuleCount, 0, len(keys))
		for _, k := range keys {
			st := rs.rules[k]
			rc := st.RuleCount
			if st.ex != nil {
				rc.Examples = st.ex.sorted()
			}
			row.Rules = append(row.Rules, rc)
		}
		row.Addresses = rs.addrs.sorted()
		rep.Violations += row.violations()
		if row.Identity == Impostor {
			rep.Impostors += row.Requests
		}
		rep.Crawlers = append(rep.Crawlers, row)
	}
	sortRows(rep.Crawlers)
	return &rep
}

// Merge adds up reports of the same robots.txt files and settings, each of some of
// the logs (one per file, say, from a batch system), into the report of them all:
// the same report as one run over the files in the order of the reports. Counts
// beyond a bound (Row.OtherRules) are the one exception: which rules a run counts
// past MaxRules depends on the order it read them.
func Merge(reports ...*Report) (*Report, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("no report to merge")
	}
	first := reports[0]
	a := NewAnalyzer(Config{Robots: first.Robots, Host: first.Host, Examples: first.Examples})
	a.rep.CacheLifetime = first.CacheLifetime
	a.rep.Verification = first.Verification
	for i, r := range reports {
		if !Timeline(r.Robots).same(first.Robots) {
			return nil, fmt.Errorf("report %d judged against other robots.txt files than report 1 (%s): merge reports of the same files only", i+1, versionNames(r.Robots))
		}
		if r.CacheLifetime != first.CacheLifetime || r.Host != first.Host || r.Verification != first.Verification || r.Examples != first.Examples {
			return nil, fmt.Errorf("report %d was made with other settings (cache lifetime, host, verification, examples) than report 1", i+1)
		}
		if err := a.add(r); err != nil {
			return nil, fmt.Errorf("report %d: %w", i+1, err)
		}
	}
	return a.Report(), nil
}

// MaxOtherCrawlers bounds the crawlers outside the registry a merge takes: the
// rows of crawlers a report names by a product token the registry does not know
// (the robots.txt gate's Policy.Crawlers).
const MaxOtherCrawlers = 1024

// addCrawler adds to the Analyzer's table a crawler the registry does not know,
// as a report's row describes it, and returns its index. The shared table stays
// as it is: the Analyzer gets a copy.
func (a *Analyzer) addCrawler(row Row) (int, error) {
	name := row.Crawler
	if name == "" || len(name) > 256 || strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r >= 0x7f }) {
		return 0, fmt.Errorf("crawler %q is not a product token", name)
	}
	if a.table == sharedTable() {
		t := *a.table
		t.all, t.byName = slices.Clone(t.all), maps.Clone(t.byName)
		a.table = &t
	}
	if a.others++; a.others > MaxOtherCrawlers {
		return 0, fmt.Errorf("crawler %s: more than %d crawlers outside the registry", name, MaxOtherCrawlers)
	}
	a.table.byName[strings.ToLower(name)] = len(a.table.all)
	a.table.all = append(a.table.all, crawlerInfo{name: name, operator: row.Operator, agents: []string{name},
		honours: row.HonoursCrawlDelay, stance: row.Stance})
	return len(a.table.all) - 1, nil
}

func versionNames(tl []Version) string {
	names := make([]string, len(tl))
	for i, v := range tl {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

// add folds a report into the Analyzer's state.
func (a *Analyzer) add(r *Report) error {
	a.rep.Lines += r.Lines
	a.rep.Records += r.Records
	a.rep.OtherHost += r.OtherHost
	a.rep.Crawler += r.Crawler
	a.rep.Skipped += r.Skipped
	for k, v := range r.SkippedBy {
		if a.rep.SkippedBy == nil {
			a.rep.SkippedBy = map[string]int64{}
		}
		a.rep.SkippedBy[k] += v
	}
	for _, s := range r.SkippedLines {
		if len(a.rep.SkippedLines) < maxSkippedLines {
			a.rep.SkippedLines = append(a.rep.SkippedLines, s)
		}
	}
	a.rep.Files = append(a.rep.Files, r.Files...)
	versions := map[string]int32{}
	for i, v := range a.cfg.Robots {
		versions[v.Name] = int32(i)
	}
	for _, row := range r.Crawlers {
		ci, ok := a.table.byName[strings.ToLower(row.Crawler)]
		if !ok {
			var err error
			if ci, err = a.addCrawler(row); err != nil {
				return err
			}
		}
		if !slices.Contains(identities, row.Identity) {
			return fmt.Errorf("crawler %s: unknown identity %q", row.Crawler, row.Identity)
		}
		rs := a.rowOf(int32(ci), Identity{Status: row.Identity})
		m := &rs.row
		if m.Requests == 0 || row.First.Before(m.First) || row.First.Equal(m.First) && row.Detail < m.Detail {
			m.First, m.Method, m.Detail = row.First, row.Method, row.Detail
		}
		if row.Last.After(m.Last) {
			m.Last = row.Last
		}
		if row.RobotsFetches > 0 {
			if m.RobotsFetches == 0 || row.RobotsFirst.Before(m.RobotsFirst) {
				m.RobotsFirst = row.RobotsFirst
			}
			if row.RobotsLast.After(m.RobotsLast) {
				m.RobotsLast = row.RobotsLast
			}
		}
		m.Requests += row.Requests
		m.RobotsFetches += row.RobotsFetches
		m.Allowed += row.Allowed
		m.AllowedByCache += row.AllowedByCache
		m.Disallowed += row.Disallowed
		m.NotJudged += row.NotJudged
		m.OtherRules += row.OtherRules
		m.TooFast += row.TooFast
		m.CrawlDelay = max(m.CrawlDelay, row.CrawlDelay)
		for code, n := range row.Status {
			c := 0
			if code != "other" {
				var err error
				if c, err = strconv.Atoi(code); err != nil {
					return fmt.Errorf("crawler %s: status %q is not a code", row.Crawler, code)
				}
			}
			rs.status[c] += n
		}
		for _, s := range row.Addresses {
			rs.addrs.add(s)
		}
		for _, rc := range row.Rules {
			vi, ok := versions[rc.Robots]
			if !ok {
				return fmt.Errorf("crawler %s: rule of unknown robots.txt %q", row.Crawler, rc.Robots)
			}
			k := ruleKey{vi, int32(rc.Line)}
			st := rs.rules[k]
			if st == nil {
				if len(rs.rules) >= MaxRules {
					m.OtherRules += rc.Requests
					continue
				}
				st = &ruleState{RuleCount: RuleCount{Robots: rc.Robots, Line: rc.Line, Rule: rc.Rule}}
				rs.rules[k] = st
				a.giveExamples(rs, k, st)
			}
			st.Requests += rc.Requests
			if st.ex != nil {
				for _, ex := range rc.Examples {
					st.ex.add(ex)
				}
			}
		}
	}
	return nil
}
