package lint

import "github.com/gorobots/robots"

// Code names a kind of finding. Codes are stable: tools may filter on them. It is
// the robots package's Code: the findings on how a line is read are the parser's own
// diagnostics (robots.Parse(…).Diagnostics()), under the same codes; lint adds the
// codes of its other checks.
type Code = robots.Code

// Severity says how much a finding matters.
type Severity string

const (
	// Error: a line does not take effect as written for Google and RFC 9309 crawlers
	// (a rule that is ignored or can never match), or the file is not robots.txt.
	Error Severity = "error"
	// Warning: crawlers disagree on what the line means, or it very probably does
	// something other than what its author meant.
	Warning Severity = "warning"
	// Info: harmless, but worth knowing.
	Info Severity = "info"
)

// Syntax: how each line is read. The first eight are the parser's diagnostics.
const (
	MissingColon     = robots.MissingColon     // "Disallow /x": Google reads it, others skip it
	MisspelledField  = robots.MisspelledField  // "Dissallow", "User agent": Google reads it, others skip it
	UnknownField     = robots.UnknownField     // a field no crawler is known to read ("foo bar" too)
	InvalidLine      = robots.InvalidLine      // not a field at all: every crawler skips it
	RuleOutsideGroup = robots.RuleOutsideGroup // allow/disallow before any user-agent line: ignored
	EmptyUserAgent   = robots.EmptyUserAgent   // "User-agent:" with no value names no crawler
	FileTooLarge     = robots.FileTooLarge     // content past 500 KiB is ignored
	LineTooLong      = robots.LineTooLong      // a line past robots.MaxLineBytes is cut

	UnsupportedField   Code = "unsupported-field"    // noindex, nofollow, noarchive: no major crawler obeys them
	GluedField         Code = "glued-field"          // "</div>User-agent: *": a field after other text on its line is lost
	NotAPath           Code = "not-a-path"           // a rule value that does not start with "/" or "*" never matches
	MisplacedDollar    Code = "misplaced-dollar"     // "$" before the end of a value is a literal "$"
	InvalidCrawlDelay  Code = "invalid-crawl-delay"  // crawl-delay that is not a non-negative number
	IgnoredCrawlDelay  Code = "ignored-crawl-delay"  // crawl-delay in a group only crawlers that ignore it read
	SitemapNotAbsolute Code = "sitemap-not-absolute" // sitemap that is not an absolute http(s) URL
	LicenseNotAbsolute Code = "license-not-absolute" // RSL License line that is not an absolute http(s) URL
	InvalidUTF8        Code = "invalid-utf8"         // bytes that are not UTF-8
	HTMLPage           Code = "html-page"            // an HTML or XML page served as robots.txt
	NotRobotsTxt       Code = "not-robots-txt"       // text with no robots.txt field at all (an error page)
)

// Meaning: what the groups and rules do.
const (
	AgentToken       Code = "agent-token"       // user-agent with characters Google's token stops at ("MJ12bot" is "MJ")
	AgentWildcard    Code = "agent-wildcard"    // a "*" after a name ("Google*"): only "*" alone is a wildcard
	GroupMerge       Code = "group-merge"       // a non-rule line between user-agent lines merges the groups
	EmptyGroup       Code = "empty-group"       // a group with no rules: its crawlers skip the "*" group's rules
	AllowOnlyGroup   Code = "allow-only-group"  // a group with only allow rules: its crawlers skip the "*" group's disallow rules
	DropsStarRules   Code = "drops-star-rules"  // a group that repeats none of the "*" group's disallow rules
	DuplicateRule    Code = "duplicate-rule"    // the same rule twice for the same crawlers
	ConflictingRules Code = "conflicting-rules" // allow and disallow with the same value
	ShadowedRule     Code = "shadowed-rule"     // a rule always overridden by a rule with the opposite verdict
	RedundantRule    Code = "redundant-rule"    // a rule always covered by a stronger rule with the same verdict
	RepeatedAgent    Code = "repeated-agent"    // the same crawler named in several groups
	RepeatedStar     Code = "repeated-star"     // several "*" groups
	BlocksAll        Code = "blocks-all"        // a group blocks every URL for major crawlers
	DialectsDisagree Code = "dialects-disagree" // crawlers following other documents decide a path of the file differently
)

// Usage preferences: Content-Usage (IETF AI Preferences) and Content-Signal
// (Cloudflare's Content Signals Policy) lines.
const (
	UsageNotDictionary   Code = "usage-not-dictionary"    // a value that is not an RFC 9651 Dictionary: upper-case keys, stray commas
	UsageNotYN           Code = "usage-not-y-n"           // a Content-Usage value other than the tokens y and n ("train-ai=no")
	SignalNotYesNo       Code = "signal-not-yes-no"       // a Content-Signal value other than the tokens yes and no
	UsageUnknownCategory Code = "usage-unknown-category"  // a key that is no category of the field ("train_ai", "ai-train" in Content-Usage)
	UsagePathNoSlash     Code = "usage-path-no-slash"     // a path without its leading "/", read as part of the preference
	UsageNoEffect        Code = "usage-no-effect"         // a preference line outside any group, or in a group that may fetch nothing
	UsageMisspelledField Code = "usage-misspelled-field"  // "Content-Signals", "ContentUsage": crawlers skip the line
	UsageIgnoredByGoogle Code = "usage-ignored-by-google" // Google's crawlers read neither line
	UsageSignalsDisagree Code = "usage-signals-disagree"  // Content-Usage and Content-Signal on one path say opposite things of one use
	UsageDropsCategories Code = "usage-drops-categories"  // a line on a longer path leaves out what a shorter one states: unknown there
)

// CodeInfo describes a code for documentation and for tools that list rules (SARIF).
type CodeInfo struct {
	Code     Code
	Severity Severity
	Summary  string // what is wrong, in one sentence
	Crawler  string // what crawlers do about it
}

var codes = []CodeInfo{
	{MissingColon, Warning, "A field Google reads, written without a colon (\"Disallow /x\") or with its only colon in the value (\"Disallow https://example.com/x\").",
		"Google reads \"name value\" as \"name: value\" when the line has exactly two words; RFC 9309 parsers and most other crawlers skip the line."},
	{MisspelledField, Warning, "A misspelled or extended field name (\"Dissallow\", \"User agent\", \"Disallowed\").",
		"Google reads the misspellings it knows and any name that starts with a field name; other crawlers skip the line."},
	{UnknownField, Warning, "A field name no crawler is known to read, with a colon or without (\"Restrict: /x\", \"Hello world\").",
		"Every crawler skips the line."},
	{GluedField, Error, "A field written after other text on its line (\"</div>User-agent: *\", often HTML injected into a hacked site's file).",
		"Google and RFC 9309 crawlers take the text before the line's first colon as its field name, a name no crawler reads: the line is skipped, and with a user-agent line the rules after it join the group before it or, with none before, belong to no group."},
	{UnsupportedField, Warning, "noindex, nofollow or noarchive in robots.txt.",
		"No major crawler obeys them (Google stopped reading noindex in 2019). Use a robots meta tag or an X-Robots-Tag header."},
	{InvalidLine, Warning, "A line that is not a field: no colon, and one word or more than two (\"<pre>\", \"please do not crawl us\").",
		"Every crawler skips the line."},
	{RuleOutsideGroup, Error, "An allow or disallow line before the first user-agent line.",
		"The rule belongs to no group: every crawler ignores it."},
	{EmptyUserAgent, Warning, "A user-agent line with no value.",
		"It names no crawler; if the group has no other user-agent line, its rules apply to nobody."},
	{NotAPath, Error, "A rule value that does not start with \"/\" or \"*\" (\"Disallow: private/\", a full URL).",
		"Every URL path starts with \"/\", so the rule never matches (a few old parsers add the \"/\")."},
	{MisplacedDollar, Warning, "A \"$\" before the end of a rule value.",
		"\"$\" anchors only at the end of a value; anywhere else it matches a literal \"$\"."},
	{InvalidCrawlDelay, Warning, "A crawl-delay that is not a non-negative number of seconds.",
		"Crawlers that read crawl-delay (Bing; not Google, nor Yandex since February 2018) ignore it."},
	{IgnoredCrawlDelay, Warning, "A crawl-delay in a group whose crawlers all ignore crawl-delay (\"User-agent: Googlebot\", \"User-agent: Yandex\").",
		"Google has never honoured crawl-delay and Yandex has ignored it since February 2018 (package crawlers says which crawlers do): the line changes nothing for them."},
	{SitemapNotAbsolute, Warning, "A sitemap value that is not an absolute http or https URL.",
		"Crawlers ignore it: sitemap URLs are not resolved against the site."},
	{LicenseNotAbsolute, Warning, "An RSL License value that is not an absolute http or https URL.",
		"RSL 1.0 wants the full URL of the licence, protocol and host included; crawlers that read RSL cannot find the licence otherwise."},
	{FileTooLarge, Error, "The file is larger than 500 KiB.",
		"Google and RFC 9309 crawlers read the first 500 KiB; rules past that point are ignored."},
	{LineTooLong, Warning, "A line longer than Google's line buffer (16,663 bytes).",
		"Google cuts the line there and ignores the rest, which shortens the rule."},
	{InvalidUTF8, Warning, "Bytes that are not UTF-8 (often Latin-1 text).",
		"Crawlers percent-encode the raw bytes, so a rule matches URLs with those escapes rather than the UTF-8 spelling; some drop the bytes."},
	{HTMLPage, Error, "The file is an HTML or XML page (an error page served as robots.txt).",
		"Crawlers read it line by line like any robots.txt and find no rules (or stray ones)."},
	{NotRobotsTxt, Error, "The file has text but no robots.txt field at all (a \"Not Found\" page, a JSON error).",
		"Crawlers read it as an empty file: no rules, everything allowed."},
	{AgentToken, Warning, "A user-agent name with characters outside [A-Za-z_-] (\"MJ12bot\", \"archive.org_bot\", \"Googlebot, bingbot\").",
		"Google and RFC 9309 read only the leading letters, \"_\" and \"-\": \"MJ12bot\" is \"MJ\", so the group applies to no crawler of that name."},
	{AgentWildcard, Warning, "A user-agent name followed by \"*\" (\"Google*\", \"Googlebot*\"), written as if it matched every crawler whose name starts so.",
		"Only \"*\" alone is a wildcard: Google and RFC 9309 read \"Google*\" as the product token \"Google\", so the group applies to no crawler named Googlebot, Google-Extended or GoogleOther; write one user-agent line per crawler."},
	{GroupMerge, Warning, "A non-rule line (crawl-delay, sitemap, host, …) between user-agent lines.",
		"Only allow and disallow lines end the user-agent lines of a group: the user-agents before and after the line form one group and share its rules (under RFC 9309 with draft-ietf-aipref-attach a Content-Usage line ends them too, so crawlers read such a file two ways)."},
	{EmptyGroup, Warning, "A group with no allow or disallow line (often only a crawl-delay) while the \"*\" group has rules.",
		"A crawler obeys only the group that names it, so the crawlers of this group skip the \"*\" rules and may fetch everything."},
	{AllowOnlyGroup, Warning, "A group whose rules are all Allow (often \"Allow: /*.css$\", \"Allow: /*.js$\") while the \"*\" group has Disallow rules.",
		"A crawler obeys only the groups that name it, so the crawlers of this group skip the \"*\" disallow rules and may fetch everything they block; the allow rules add nothing. Repeat the disallow rules in the group."},
	{DropsStarRules, Info, "A group with disallow rules of its own that repeats none of the \"*\" group's disallow rules.",
		"The crawlers of this group skip the \"*\" rules and may fetch what they block. Often meant (a crawler given other limits), sometimes not: the finding lists the rules dropped."},
	{DuplicateRule, Info, "The same rule twice for the same crawlers.",
		"Nothing: the second copy never decides anything."},
	{ConflictingRules, Warning, "Allow and disallow with the same value for the same crawlers.",
		"Google and RFC 9309 allow (allow wins a tie); crawlers that take the first matching rule in file order follow whichever comes first."},
	{ShadowedRule, Warning, "A rule that never decides: a longer rule with the opposite verdict matches every URL it matches.",
		"The other rule always wins (longest match), so this rule has no effect."},
	{RedundantRule, Info, "A rule that never decides: a longer rule with the same verdict matches every URL it matches.",
		"The other rule always wins; the verdict is the same, so removing this rule changes nothing."},
	{RepeatedAgent, Warning, "The same crawler named in several groups.",
		"Google and RFC 9309 merge the groups; crawlers that stop at the first matching group ignore the later ones."},
	{RepeatedStar, Warning, "Several \"User-agent: *\" groups.",
		"Google and RFC 9309 merge them; crawlers that stop at the first matching group ignore the later ones."},
	{BlocksAll, Info, "A group that disallows every URL for one or more major crawlers.",
		"Those crawlers fetch nothing from the site (search engines may still list URLs they find elsewhere)."},
	{DialectsDisagree, Info, "A path the file names (a rule's value) gets a different verdict under another interpretation: RFC 9309, the 1996 draft or the 1994 standard.",
		"Google and RFC 9309 crawlers take the longest matching rule and read '*' and a final '$' as wildcards; crawlers that follow the 1996 draft take the first matching rule in file order and read '*' and '$' literally; 1994 crawlers ignore Allow."},
	{UsageNotDictionary, Error, "A Content-Usage or Content-Signal value that is not an RFC 9651 Dictionary: upper-case keys (\"Train-AI=n\"), stray or trailing commas, spaces around \"=\".",
		"Crawlers that read usage preferences treat every category of the line as unknown (draft-ietf-aipref-vocab §6.5.1): the line says nothing."},
	{UsageNotYN, Error, "A Content-Usage value other than the tokens y and n (\"train-ai=no\", \"train-ai=\\\"n\\\"\", a key without a value).",
		"The Dictionary parses, but only the tokens y and n state a preference: that category is unknown."},
	{SignalNotYesNo, Error, "A Content-Signal value other than the tokens yes and no (\"ai-train=n\").",
		"The Content Signals Policy defines yes and no only: crawlers read that signal as unstated."},
	{UsageUnknownCategory, Warning, "A key that is no category of the field: a misspelling (\"train_ai\", \"serach\"), the other field's word (\"ai-train\" in Content-Usage), or a label of an earlier draft.",
		"Crawlers ignore keys they do not know, so the preference meant is unknown."},
	{UsagePathNoSlash, Error, "A path without its leading \"/\" (\"Content-Usage: *.pdf train-ai=n\").",
		"Only a value starting with \"/\" has a path (draft-ietf-aipref-attach-05 §3.2): the path is read as part of the preference, which then does not parse, and every category is unknown."},
	{UsageNoEffect, Warning, "A Content-Usage or Content-Signal line before the first user-agent line, or in a group whose crawlers may fetch nothing.",
		"Preferences are rules of a group and apply only to URLs the group lets a crawler fetch: the line applies to nothing."},
	{UsageMisspelledField, Warning, "A misspelling of Content-Usage or Content-Signal (\"Content-Signals\", \"ContentUsage\").",
		"Every crawler skips the line: the preference is not stated."},
	{UsageSignalsDisagree, Warning, "A Content-Usage and a Content-Signal line of one group, on the same path, that state opposite preferences for the same use (\"Content-Usage: /blog/ train-ai=y\" and \"Content-Signal: /blog/ ai-train=no\").",
		"Crawlers that read both combine them most restrictively; those that read one follow it: the site says two things."},
	{UsageDropsCategories, Warning, "A usage line on a longer path that leaves out categories a line on a shorter path of its group states (\"Content-Usage: train-ai=n, search=y\" then \"Content-Usage: /blog/ train-ai=y\").",
		"Only the lines whose path matches longest apply (draft-ietf-aipref-attach §3.1): under the longer path the categories it leaves out are unknown, not those of the shorter line."},
	{UsageIgnoredByGoogle, Info, "The file states usage preferences.",
		"Google's crawlers ignore Content-Usage and Content-Signal lines today; Google documents the Google-Extended token for keeping content out of its AI models."},
}

// Codes returns every code with its severity and meaning, in documentation order.
func Codes() []CodeInfo {
	return append([]CodeInfo(nil), codes...)
}

// Describe returns the description of c, and false for a code lint does not report.
func Describe(c Code) (CodeInfo, bool) {
	for i := range codes { // not copied: most are passed over
		if codes[i].Code == c {
			return codes[i], true
		}
	}
	return CodeInfo{}, false
}
