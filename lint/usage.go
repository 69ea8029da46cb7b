package lint

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/internal/sfv"
)

// A usage field is Content-Usage (draft-ietf-aipref-attach, vocabulary of
// draft-ietf-aipref-vocab: tokens y and n) or Content-Signal (Cloudflare's Content
// Signals Policy: yes and no).
type usageField struct {
	name     string // as it should be written
	key      string // lower case, as robots.Field.Name
	vocab    []robots.Category
	yes, no  string
	other    *usageField // the other field, whose words people mix up with these
	synonyms map[string]string
}

var contentUsage, contentSignal = &usageField{name: "Content-Usage", key: "content-usage", yes: "y", no: "n"},
	&usageField{name: "Content-Signal", key: "content-signal", yes: "yes", no: "no"}

func init() {
	contentUsage.vocab, contentUsage.other = robots.Categories(), contentSignal
	contentSignal.vocab, contentSignal.other = robots.Signals(), contentUsage
	// The same use under the other field's word: "ai-train" written in Content-Usage.
	contentUsage.synonyms = map[string]string{"ai-train": "train-ai"}
	contentSignal.synonyms = map[string]string{"train-ai": "ai-train"}
}

// usageFieldNames are the usage fields with what people write for them instead.
var usageFieldNames = []*usageField{contentUsage, contentSignal}

// misspeltUsageField returns the usage field that an unknown field name l.Key was
// meant to be ("Content-Signals", "ContentUsage", "Content_Usage"), or nil.
func misspeltUsageField(l robots.Line) *usageField {
	key := strings.ToLower(l.Key)
	squeezed := strings.NewReplacer("-", "", "_", "", " ", "").Replace(key)
	for _, uf := range usageFieldNames {
		if squeezed == strings.ReplaceAll(uf.key, "-", "") || editDistance(key, uf.key, 2) <= 2 {
			return uf
		}
	}
	return nil
}

// checkUsage looks at the Content-Usage and Content-Signal lines: their statements,
// where they stand, and what Google makes of them.
func checkUsage(f *file) {
	if f.html {
		return
	}
	var inGroup map[int]int // line of a usage field -> its group, made at the first
	first := 0
	for i := range f.read {
		if k := f.read[i].Kind; k != robots.KindOther && k != robots.KindUnknown {
			continue // not copied: most lines are passed over
		}
		l := f.read[i]
		var uf *usageField
		switch {
		case l.Kind == robots.KindOther && strings.EqualFold(l.Key, contentUsage.key):
			uf = contentUsage
		case l.Kind == robots.KindOther && strings.EqualFold(l.Key, contentSignal.key):
			uf = contentSignal
		case l.Kind == robots.KindUnknown:
			if m := misspeltUsageField(l); m != nil {
				f.add(l.Num, keyCol(l), UsageMisspelledField, "%q is not a field name: crawlers that read usage preferences skip the line; write %q", l.Key, m.name)
			}
			continue
		default:
			continue
		}
		if first == 0 {
			first = l.Num
			inGroup = map[int]int{}
			for gi, g := range f.groups {
				for _, fl := range g.Fields {
					inGroup[fl.Line] = gi
				}
			}
		}
		gi, ok := inGroup[l.Num]
		switch {
		case !ok:
			f.add(l.Num, keyCol(l), UsageNoEffect, "%s before the first user-agent line belongs to no group: it applies to no crawler; put it in a group (\"User-agent: *\" above it)", uf.name)
		case groupFetchesNothing(f, gi):
			f.add(l.Num, keyCol(l), UsageNoEffect, "the group of line %d disallows every URL: preferences apply only to what a crawler may fetch, so this line applies to nothing", f.groups[gi].Line)
		}
		checkStatement(f, l, uf)
	}
	if first > 0 {
		f.add(first, 0, UsageIgnoredByGoogle, "Google's crawlers ignore Content-Usage and Content-Signal lines today; to keep content out of Google's AI models (Gemini), Google documents \"User-agent: Google-Extended\" with \"Disallow: /\"")
	}
}

// groupFetchesNothing reports whether every crawler the group names may fetch
// nothing, all its groups taken together.
func groupFetchesNothing(f *file, gi int) bool {
	for _, a := range f.groups[gi].Agents {
		gs, _ := f.r.GroupsFor(a.Token())
		if len(gs) == 0 || !blocksEverything(f, gs) {
			return false
		}
	}
	return len(f.groups[gi].Agents) > 0
}

// checkStatement looks at the value of a usage line: its path, its Dictionary, its
// keys and values.
func checkStatement(f *file, l robots.Line, uf *usageField) {
	v := l.Value
	stmt, at := v, l.ValueCol // the statement, and the column it starts at
	if strings.HasPrefix(v, "/") {
		if i := strings.IndexAny(v, " \t"); i >= 0 {
			stmt = strings.TrimLeft(v[i:], " \t")
			at += len(v) - len(stmt)
		} else {
			stmt = ""
		}
	}
	dict, err := sfv.ParseDictionary(stmt)
	if err != nil {
		// "*.pdf train-ai=n", "docs/ train-ai=n": a path without its "/" is read as part
		// of the statement, which then does not parse.
		if i := strings.IndexAny(v, " \t"); i > 0 && !strings.HasPrefix(v, "/") && !strings.ContainsAny(v[:i], "=,;\"") {
			if _, err2 := sfv.ParseDictionary(strings.TrimLeft(v[i:], " \t")); err2 == nil {
				path := "/" + strings.TrimPrefix(v[:i], "/")
				f.add(l.Num, l.ValueCol, UsagePathNoSlash, "the path %q does not start with \"/\", so the whole value is read as the preference, which then does not parse: every category is unknown; write %q",
					v[:i], uf.name+": "+path+" "+strings.TrimLeft(v[i:], " \t"))
				return
			}
		}
		var se *sfv.SyntaxError
		col := at
		if errors.As(err, &se) {
			col += se.Offset
		}
		f.add(l.Num, col, UsageNotDictionary, "%s: every category is unknown%s", syntaxMessage(err), fixStatement(uf, stmt))
		return
	}
	if len(dict) == 0 && stmt == "" && v != "" {
		return // a path alone states nothing, which is what it says
	}
	for _, m := range dict {
		col := at + keyOffset(stmt, m.Key)
		c := slices.IndexFunc(uf.vocab, func(c robots.Category) bool { return c.Label == m.Key })
		if c < 0 {
			f.add(l.Num, col, UsageUnknownCategory, "%s", unknownCategory(uf, m.Key))
			continue
		}
		if m.Value.Kind == sfv.Token && (m.Value.Text == uf.yes || m.Value.Text == uf.no) {
			continue
		}
		code := UsageNotYN
		if uf == contentSignal {
			code = SignalNotYesNo
		}
		fix := m.Key + "=" + meantValue(uf, m.Value)
		if m.Value.Kind == sfv.Boolean {
			fix = m.Key + "=" + uf.yes + " or " + m.Key + "=" + uf.no
		}
		f.add(l.Num, col, code, "%s takes the tokens %s and %s: %s, so crawlers read %s as unknown; write %s",
			uf.name, uf.yes, uf.no, describeValue(m), m.Key, fix)
	}
}

// syntaxMessage is an RFC 9651 syntax error in a finding's words.
func syntaxMessage(err error) string {
	var se *sfv.SyntaxError
	if errors.As(err, &se) {
		return "not an RFC 9651 Dictionary (" + se.Msg + ")"
	}
	return err.Error()
}

// fixStatement suggests a statement that parses, where one is plain: lower-case
// keys, no empty members.
func fixStatement(uf *usageField, stmt string) string {
	var members []string
	for m := range strings.SplitSeq(stmt, ",") {
		if m = strings.TrimSpace(m); m != "" {
			members = append(members, strings.ToLower(m))
		}
	}
	fix := strings.Join(members, ", ")
	if _, err := sfv.ParseDictionary(fix); err == nil && fix != "" && fix != stmt {
		return fmt.Sprintf("; write %q", fix)
	}
	return fmt.Sprintf("; write lower-case keys with =%s or =%s, separated by commas (%s=%s)", uf.yes, uf.no, uf.vocab[0].Label, uf.no)
}

// keyOffset is where key is first written as a key in stmt, or 0.
func keyOffset(stmt, key string) int {
	for i := 0; i < len(stmt); {
		j := strings.Index(stmt[i:], key)
		if j < 0 {
			return 0
		}
		j += i
		if (j == 0 || strings.ContainsRune(" \t,", rune(stmt[j-1]))) && (j+len(key) == len(stmt) || strings.ContainsRune("=;, \t", rune(stmt[j+len(key)]))) {
			return j
		}
		i = j + 1
	}
	return 0
}

func unknownCategory(uf *usageField, key string) string {
	var labels []string
	for _, c := range uf.vocab {
		labels = append(labels, c.Label)
	}
	known := strings.Join(labels, ", ")
	if meant, ok := uf.synonyms[key]; ok {
		return fmt.Sprintf("%s has no category %q (that is %s's word): crawlers ignore it; write %q", uf.name, key, uf.other.name, meant)
	}
	for _, c := range uf.vocab {
		if editDistance(strings.ToLower(key), c.Label, 2) <= 2 || strings.ReplaceAll(key, "_", "-") == c.Label {
			return fmt.Sprintf("%s has no category %q: crawlers ignore it; did you mean %q?", uf.name, key, c.Label)
		}
	}
	return fmt.Sprintf("%s has no category %q: crawlers ignore keys they do not know (the categories are %s)", uf.name, key, known)
}

func describeValue(m sfv.Member) string {
	switch m.Value.Kind {
	case sfv.Boolean:
		return m.Key + " is a boolean (as a key written without a value is)"
	case sfv.Token:
		return fmt.Sprintf("%s is %s", m.Key, m.Value.Text)
	}
	return fmt.Sprintf("%s is a %s", m.Key, m.Value.Kind)
}

// meantValue guesses the token a value was meant to be: yes for yes, true, allow,
// 1; no for anything else (the restrictive reading).
func meantValue(uf *usageField, v sfv.Item) string {
	switch strings.ToLower(v.Text) {
	case "y", "yes", "true", "allow", "allowed", "1":
		return uf.yes
	}
	return uf.no
}
