package lint

import (
	"bytes"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gorobots/robots"
)

// htmlSniffBytes is how much of the start of a file is looked at to tell an HTML or
// XML page from robots.txt: the markup of an error page starts at once.
const htmlSniffBytes = 1024

// checkHTML recognises an error page served as robots.txt: markup ("<html",
// "<!DOCTYPE", "<?xml", "<head", …) where the first field should be, and no
// user-agent line anywhere. A real file with stray markup (a "<pre>" wrapper, an HTML
// comment, a PHP warning) is left to the line checks, which name each skipped line.
func checkHTML(f *file) {
	if !isHTML(f.body, slices.Values(f.lines)) {
		return
	}
	f.html = true
	f.add(1, 0, HTMLPage, "this is an HTML or XML page, not robots.txt (an error page?): crawlers read it line by line and find no group; serve the real file as text/plain, or a 404 if there is none")
}

// checkNotRobots recognises other error pages served as robots.txt ("Not Found",
// a JSON error): text, and no line that is a robots.txt field. Crawlers read such a
// file as an empty one, which allows everything.
func checkNotRobots(f *file) {
	if f.html {
		return
	}
	for i := range f.lines {
		switch f.lines[i].Kind {
		case robots.KindBlank, robots.KindInvalid, robots.KindUnknown:
		default:
			return
		}
	}
	for _, d := range f.diags {
		if d.Code == InvalidLine || d.Code == UnknownField { // text that shows
			f.html = true // the line checks have nothing to add
			f.add(1, 0, NotRobotsTxt, "no line of this file is a robots.txt field (an error page?): crawlers read it as an empty file and may fetch everything; serve the real file, or a 404 if there is none")
			return
		}
	}
}

// checkSize reports a file longer than the size limit and the lines it loses. The
// parser says on which line the limit falls.
func checkSize(f *file) {
	if n := f.opts.FileBytes; n > len(f.body) && len(f.body) > 0 {
		// Only the beginning is here: the lines past it are neither read by crawlers
		// (when body is the first 500 KiB) nor checked.
		f.add(len(f.lines), 0, FileTooLarge, "the file is %d bytes; crawlers read only the first %d (500 KiB), which end on line %d: the lines after it are ignored (and were not checked here)", n, robots.DefaultMaxBytes, len(f.lines))
		return
	}
	read := len(f.lines)
	for _, d := range f.diags {
		if d.Code == FileTooLarge {
			read = d.Line
		}
	}
	f.read = f.lines[:read]
	if read == len(f.lines) {
		return
	}
	lost, first := 0, 0
	for _, l := range f.lines[read:] {
		switch l.Kind {
		case robots.KindUserAgent, robots.KindAllow, robots.KindDisallow, robots.KindSitemap:
			lost++
			if first == 0 {
				first = l.Num
			}
		}
	}
	msg := fmt.Sprintf("the file is %d bytes; crawlers read only the first %d (500 KiB), which end on line %d", len(f.body), robots.DefaultMaxBytes, read)
	if lost > 0 {
		msg += fmt.Sprintf(": the %d user-agent, rule and sitemap lines from line %d on are ignored", lost, first)
	}
	f.add(read, 0, FileTooLarge, "%s", msg)
}

// canonical spellings of the fields Google recognises by prefix or misspelling.
var canonical = map[robots.Kind]string{
	robots.KindUserAgent: "User-agent",
	robots.KindAllow:     "Allow",
	robots.KindDisallow:  "Disallow",
	robots.KindSitemap:   "Sitemap",
}

// unsupported are fields people write hoping for an effect no major crawler gives.
var unsupported = map[string]string{
	"noindex":   "Google stopped reading noindex in robots.txt in 2019 and no other major crawler obeys it; a URL blocked by robots.txt cannot show its noindex either: use a robots meta tag or an X-Robots-Tag header",
	"nofollow":  "no major crawler reads nofollow in robots.txt: use a robots meta tag or rel=\"nofollow\" on links",
	"noarchive": "no major crawler reads noarchive in robots.txt: use a robots meta tag or an X-Robots-Tag header",
}

// checkLines reports the parser's diagnostics of each line it reads, with a column
// and what to write instead, and looks at the values of the lines.
func checkLines(f *file) {
	if f.html {
		return // an error page: one finding says it all
	}
	var outside map[int]bool // rule lines that belong to no group: their values do not matter
	for _, d := range f.diags {
		l := f.line(d.Line)
		switch d.Code {
		case FileTooLarge: // checkSize
		case LineTooLong:
			f.add(l.Num, robots.MaxLineBytes+1, LineTooLong, "line is longer than %d bytes: Google ignores the rest of it", robots.MaxLineBytes)
		case InvalidLine:
			if name, col := gluedField(l); col > 0 {
				f.add(l.Num, col, GluedField, "%s", gluedMessage(f, l, name, col))
				break
			}
			f.add(l.Num, keyCol(l), InvalidLine, "not a field (no colon): every crawler skips this line; comment it out with \"#\" if it is text")
		case MissingColon:
			want, ok := canonical[l.Kind]
			if !l.MissingColon && ok {
				// "Disallow https://x/y": the colon of the URL ended the field name.
				meant := strings.TrimSpace(l.Key[len(want):]) + ":" + l.Value
				if u, err := url.Parse(meant); err == nil && u.Scheme != "" && u.Host != "" && l.Kind != robots.KindSitemap {
					meant = pathOf(u)
				}
				f.add(l.Num, keyCol(l)+len(want), MissingColon, "no colon after %q: the first colon is the one in %q, so Google reads %q and other crawlers skip the line; write %q",
					want, l.Key+":", want+": "+l.Value, want+": "+meant)
				break
			}
			f.add(l.Num, keyCol(l)+len(l.Key), MissingColon, "no colon after %q: Google reads %q, RFC 9309 parsers and most other crawlers skip the line", l.Key, l.Key+": "+l.Value)
		case MisspelledField:
			want := canonical[l.Kind]
			f.add(l.Num, keyCol(l), MisspelledField, "%q is not a field name: Google reads it as %q, other crawlers skip the line; write %q", l.Key, want, want)
		case UnknownField:
			if misspeltUsageField(l) != nil {
				break // checkUsage names the field meant
			}
			if name, col := gluedField(l); col > 0 {
				f.add(l.Num, col, GluedField, "%s", gluedMessage(f, l, name, col))
				break
			}
			f.add(l.Num, keyCol(l), UnknownField, "%s", unknownMessage(l))
		case EmptyUserAgent:
			f.add(l.Num, keyCol(l), EmptyUserAgent, "user-agent without a value names no crawler")
		case RuleOutsideGroup:
			if outside == nil {
				outside = map[int]bool{}
			}
			outside[l.Num] = true
			f.add(l.Num, keyCol(l), RuleOutsideGroup, "%s before the first user-agent line belongs to no group: every crawler ignores it; add \"User-agent: *\" above it", canonical[l.Kind])
		default: // a diagnostic newer than this switch
			f.add(l.Num, 0, d.Code, "%s", d.Message)
		}
	}
	// A line of a file that is all UTF-8 is UTF-8 (or cut in a character, which
	// invalidUTF8 forgives): one pass over the file spares most files a pass per line.
	valid := utf8.Valid(f.body)
	for i := range f.read {
		l := &f.read[i] // not copied: most lines are passed over
		if !valid {
			if col := invalidUTF8(*l); col > 0 {
				f.add(l.Num, col, InvalidUTF8, "%s", invalidUTF8Message(*l, col))
			}
		}
		switch l.Kind {
		case robots.KindAllow, robots.KindDisallow:
			if !outside[l.Num] {
				checkValue(f, l)
			}
		case robots.KindSitemap:
			checkSitemap(f, l)
		case robots.KindOther:
			key := strings.ToLower(l.Key)
			if why, ok := unsupported[key]; ok {
				f.add(l.Num, keyCol(*l), UnsupportedField, "%s", why)
			}
			if key == "license" {
				checkLicense(f, *l)
			}
			if key == "crawl-delay" {
				if _, err := robots.ParseCrawlDelay(l.Value); err != nil {
					f.add(l.Num, max(l.ValueCol, keyCol(*l)), InvalidCrawlDelay, "%v: crawlers that read crawl-delay ignore it", err)
				}
			}
		}
	}
}

// invisible are characters that editors do not show and that hide a field name:
// a byte order mark, also when saved twice as Latin-1 text ("ï»¿"), and zero-width
// characters.
var invisible = []string{"\uFEFF", "ï»¿", "\u200B", "\u200C", "\u200D", "\u2060", "\u00A0", "â\u0080\u008b"}

func trimInvisible(s string) string {
	for {
		t := strings.TrimLeft(s, " \t")
		for _, p := range invisible {
			t = strings.TrimPrefix(t, p)
		}
		if t == s {
			return s
		}
		s = t
	}
}

// fieldNames are the fields whose near misses are worth naming.
var fieldNames = []string{"User-agent", "Disallow", "Allow", "Sitemap", "Crawl-delay"}

// maxMessageKey is how much of an unknown field name a message quotes.
const maxMessageKey = 40

func unknownMessage(l robots.Line) string {
	key := l.Key
	low := strings.ToLower(key)
	if low == "http" || low == "https" {
		return "a URL on a line of its own is not a field: every crawler skips it; write \"Sitemap: " + key + ":" + l.Value + "\" if it is a sitemap"
	}
	for _, name := range fieldNames {
		if !strings.HasSuffix(low, strings.ToLower(name)) || len(low) == len(name) {
			continue
		}
		before := key[:len(key)-len(name)]
		if trimInvisible(before) == "" {
			return fmt.Sprintf("invisible characters (%+q) before %q hide the field name: every crawler skips this line; remove them", before, key[len(before):])
		}
	}
	for _, name := range fieldNames {
		if editDistance(low, strings.ToLower(name), 2) <= 2 {
			return fmt.Sprintf("unknown field %q: every crawler skips this line; did you mean %q?", key, name)
		}
	}
	if len(key) > maxMessageKey {
		key = key[:maxMessageKey] + "…"
	}
	if l.MissingColon {
		// "Hello world": Google's parser takes it for the field "Hello" without its colon.
		return fmt.Sprintf("not a field: no colon, and no crawler reads a field %q, so every crawler skips this line; comment it out with \"#\" if it is text", key)
	}
	return fmt.Sprintf("unknown field %q: no crawler is known to read it, so every crawler skips the line", key)
}

// gluedField finds a field written after other text on a line crawlers skip
// ("</div>User-agent: *"): the leftmost name of fieldNames, in any case, that is
// followed by a colon (blanks between) or ends the field name Google read without a
// colon ("</div>Disallow /x"). It returns the name as written and its 1-based column,
// or column 0. A name after invisible characters alone is unknownMessage's.
//
// The names are looked for where they can end: before each colon and at the end of
// the field name, not at each byte of the line (the lines are often long: HTML).
func gluedField(l robots.Line) (string, int) {
	if l.Kind != robots.KindUnknown && l.Kind != robots.KindInvalid {
		return "", 0
	}
	s := l.Text
	start := keyCol(l) - 1
	at, end := -1, 0       // the leftmost name found: s[at:end]
	names := func(e int) { // the names ending at e, after the first byte of the field
		for _, name := range fieldNames {
			i := e - len(name)
			if i > start && (at < 0 || i < at) && s[i]|0x20 == name[0]|0x20 && strings.EqualFold(s[i:e], name) {
				at, end = i, e
			}
		}
	}
	if l.MissingColon && strings.HasPrefix(s[start:], l.Key) {
		names(start + len(l.Key))
	}
	for c := start; ; c++ {
		k := strings.IndexByte(s[c:], ':')
		if k < 0 {
			break
		}
		c += k
		if at >= 0 && at < c {
			break // a name before a later colon starts after this one
		}
		e := c
		for e > start && (s[e-1] == ' ' || s[e-1] == '\t') {
			e--
		}
		names(e)
	}
	if at < 0 || trimInvisible(s[start:at]) == "" {
		return "", 0
	}
	return s[at:end], at + 1
}

// gluedMessage says how crawlers read line l, whose field name is glued at col to
// the text before it, and what a lost user-agent line does to the rules after it.
func gluedMessage(f *file, l robots.Line, name string, col int) string {
	field := strings.TrimSpace(l.Text[col-1:])
	if len(field) > maxMessageKey {
		field = field[:maxMessageKey] + "…"
	}
	how := "no crawler finds a field in the line, so every crawler skips it"
	if l.Kind == robots.KindUnknown {
		key := l.Key
		if len(key) > maxMessageKey {
			key = key[:maxMessageKey] + "…"
		}
		how = fmt.Sprintf("crawlers take %q, the text before the line's first colon, as its field name, which no crawler reads, and skip the line", key)
		if l.MissingColon {
			how = fmt.Sprintf("Google takes %q as the line's field name, which no crawler reads, and every crawler skips the line", key)
		}
	}
	msg := fmt.Sprintf("%q is glued to the text before it: %s", field, how)
	if strings.EqualFold(name, "User-agent") {
		msg += "; the group it starts is lost" + lostGroup(f, l.Num)
	}
	msg += fmt.Sprintf("; put %q at the start of a line of its own and remove the text before it", field)
	if strings.Contains(l.Text[:col-1], "<") {
		msg += " (HTML injected into the file?)"
	}
	return msg
}

// lostGroup says what becomes of the rules after line n, a user-agent line crawlers
// skip: up to the next user-agent line, they join the group before it or, with none,
// belong to no group.
func lostGroup(f *file, n int) string {
	rule := 0
	for _, l := range f.read[min(n, len(f.read)):] {
		if l.Kind == robots.KindUserAgent {
			break
		}
		if l.Kind == robots.KindAllow || l.Kind == robots.KindDisallow {
			rule = l.Num
			break
		}
	}
	if rule == 0 {
		return ""
	}
	for _, d := range f.diags {
		if d.Line == rule && d.Code == RuleOutsideGroup {
			return fmt.Sprintf(", so the rules from line %d on belong to no group and every crawler ignores them", rule)
		}
	}
	for i := len(f.groups) - 1; i >= 0; i-- {
		if g := f.groups[i]; g.Line < rule && len(g.Agents) > 0 {
			return fmt.Sprintf(", so the rules from line %d on join the group of line %d (User-agent: %s) and apply to its crawlers", rule, g.Line, g.Agents[0].Name)
		}
	}
	return ""
}

// editDistance returns the Levenshtein distance of a and b, or limit+1 once it is
// sure to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// invalidUTF8 returns the 1-based column of the first byte of l that is not UTF-8,
// or 0. Comments do not count (crawlers skip them), nor does a character cut in two
// by the line length limit.
func invalidUTF8(l robots.Line) int {
	s := l.Text
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if utf8.ValidString(s) {
		return 0
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			if l.TooLong && !utf8.FullRuneInString(s[i:]) {
				return 0
			}
			return i + 1
		}
		i += n
	}
	return 0
}

// invalidUTF8Message says what the bytes that are not UTF-8, the first at column col,
// do to line l: a rule matches URLs with their escapes, a user-agent's product token
// stops at them.
func invalidUTF8Message(l robots.Line, col int) string {
	const head, tail = "bytes that are not UTF-8 (Latin-1?)", "; save the file as UTF-8"
	switch l.Kind {
	case robots.KindAllow, robots.KindDisallow:
		return head + ": crawlers percent-encode them as they are, so this rule matches URLs with those escapes, not the UTF-8 spelling" + tail
	case robots.KindUserAgent:
		tok := leading(l.Value)
		if l.ValueCol > 0 && col == l.ValueCol+len(tok) {
			if tok == "" {
				return head + ": a product token is letters, \"_\" and \"-\", so Google reads no token in this name and the line names no crawler" + tail
			}
			return fmt.Sprintf("%s: a product token is letters, \"_\" and \"-\", so Google reads this name as %q, the letters before them%s", head, tok, tail)
		}
	}
	return head + ": crawlers may read them as other characters or drop them" + tail
}

// checkValue looks at the value of an allow or disallow line.
func checkValue(f *file, l *robots.Line) {
	v := l.Value
	if v == "" {
		return
	}
	if v[0] != '/' && v[0] != '*' {
		field := canonical[l.Kind] + ": "
		if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
			f.add(l.Num, l.ValueCol, NotAPath, "%q is a full URL: rules match only the path, which starts with \"/\", so this rule never matches; write %q", v, field+pathOf(u))
			return
		}
		if strings.HasPrefix(strings.ToLower(v), "www.") {
			if u, err := url.Parse("http://" + v); err == nil && u.Host != "" {
				f.add(l.Num, l.ValueCol, NotAPath, "%q starts with a host name: rules match only the path, which starts with \"/\", so this rule never matches; write %q", v, field+pathOf(u))
				return
			}
		}
		fix := "/" + v
		if v[0] == '.' || v[0] == '?' || v[0] == '&' || v[0] == '=' {
			fix = "/*" + v // meant to match anywhere in the URL
		}
		f.add(l.Num, l.ValueCol, NotAPath, "%q does not start with \"/\" or \"*\": every URL path starts with \"/\", so this rule never matches; write %q", v, field+fix)
		return
	}
	// A "$" followed by more of a URL ("/$cashtag", "/${id}/") is a literal the author
	// meant; one followed only by punctuation was meant to end the value.
	if i := strings.IndexByte(v, '$'); i >= 0 && i < len(v)-1 && !strings.ContainsFunc(v[i+1:], isURLText) {
		f.add(l.Num, l.ValueCol+i, MisplacedDollar, "\"$\" anchors only at the end of a value: here crawlers match a literal \"$\" followed by %q", v[i+1:])
	}
}

func isURLText(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '%' || r == '{' || r >= 0x80
}

// pathOf returns the path and query of u, as a rule value.
func pathOf(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

// checkLicense checks an RSL License line (rslstandard.org/guide/robots-txt: "It
// must be a fully qualified URL, including the protocol and host").
func checkLicense(f *file, l robots.Line) {
	v := l.Value
	col := max(l.ValueCol, keyCol(l))
	u, err := url.Parse(v)
	switch {
	case v == "":
		f.add(l.Num, col, LicenseNotAbsolute, "License without a URL: RSL crawlers find no licence")
	case err != nil:
		f.add(l.Num, col, LicenseNotAbsolute, "License %q is not a valid URL: RSL crawlers find no licence", v)
	case u.Scheme == "" || u.Host == "":
		f.add(l.Num, col, LicenseNotAbsolute, "License %q is not an absolute URL: RSL 1.0 wants the protocol and host too, as https://host/license.xml", v)
	case !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https"):
		f.add(l.Num, col, LicenseNotAbsolute, "License %q is not an http or https URL", v)
	}
}

func checkSitemap(f *file, l *robots.Line) {
	v := l.Value
	col := max(l.ValueCol, keyCol(*l))
	if v == "" {
		f.add(l.Num, col, SitemapNotAbsolute, "sitemap without a URL")
		return
	}
	if plainHTTPURL(v) {
		return // most sitemap lines: no need to parse the URL to know it is fine
	}
	u, err := url.Parse(v)
	switch {
	case err != nil:
		f.add(l.Num, col, SitemapNotAbsolute, "sitemap %q is not a valid URL: crawlers ignore it", v)
	case u.Scheme == "" || u.Host == "":
		f.add(l.Num, col, SitemapNotAbsolute, "sitemap %q is not an absolute URL: crawlers do not resolve it against the site and ignore it; write the full URL, as https://host/sitemap.xml", v)
	case !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https"):
		f.add(l.Num, col, SitemapNotAbsolute, "sitemap %q is not an http or https URL: crawlers ignore it", v)
	}
}

// plainHTTPURL reports whether v is an http or https URL written plainly enough that
// url.Parse surely reads it without error, with its scheme and a host: "http://" or
// "https://" in any case, a host of letters, digits, "-" and ".", and a path and
// query of letters, digits and "-._~/?&=" (no "%", whose escapes url.Parse checks,
// no ":", "@", "[" of other parts of a URL). TestPlainHTTPURL holds it to url.Parse.
func plainHTTPURL(v string) bool {
	var rest string
	switch {
	case len(v) > 7 && strings.EqualFold(v[:7], "http://"):
		rest = v[7:]
	case len(v) > 8 && strings.EqualFold(v[:8], "https://"):
		rest = v[8:]
	default:
		return false
	}
	host := true // still in the host
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.':
		case c == '/' || c == '?':
			if i == 0 {
				return false // no host
			}
			host = false
		case !host && (c == '_' || c == '~' || c == '&' || c == '='):
		default:
			return false
		}
	}
	return true
}

// IsHTML reports whether body is an HTML or XML page rather than robots.txt, as the
// html-page finding says: markup where the first field should be, and no
// user-agent line anywhere. It is quick on robots.txt files, whose first byte
// already tells.
func IsHTML(body []byte) bool {
	// The lines are read (robots.Lines copies the body) only after the markup test.
	return startsWithMarkup(body) && isHTML(body, robots.Lines(body))
}

func isHTML(body []byte, lines iter.Seq[robots.Line]) bool {
	if !startsWithMarkup(body) {
		return false
	}
	for l := range lines {
		if l.Kind == robots.KindUserAgent {
			return false
		}
		// A hacked file whose first user-agent line is glued to the injected markup
		// is robots.txt: glued-field says what crawlers make of it.
		if name, _ := gluedField(l); strings.EqualFold(name, "User-agent") {
			return false
		}
	}
	return true
}

// startsWithMarkup reports whether body starts, after a byte order mark and
// blanks, with markup: "<" and a letter, "!" or "?" (not an HTML comment).
func startsWithMarkup(body []byte) bool {
	b := body
	if len(b) > htmlSniffBytes {
		b = b[:htmlSniffBytes]
	}
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	b = bytes.TrimLeft(b, " \t\r\n\f\v")
	if len(b) < 2 || b[0] != '<' || bytes.HasPrefix(b, []byte("<!--")) {
		return false
	}
	c := b[1]
	return c == '!' || c == '?' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
