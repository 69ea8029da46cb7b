package sfv

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/dunglas/httpsfv"
)

// The expected values are RFC 9651's examples (§3 and §4.2), the AI preferences
// vocabulary's (draft-ietf-aipref-vocab §6.5), and the RFC's parsing rules applied by
// hand, written in the notation of describe. Every case is also a seed of
// FuzzDictionary, so httpsfv reads each one too.
var dictionaryTests = []struct {
	name string
	in   string
	want string // describe's notation; "" for the empty dictionary
	err  int    // byte offset of the SyntaxError; -1 for none
}{
	// draft-ietf-aipref-vocab §6 and §6.5.
	{"vocab example", "train-ai=y, search=n", "train-ai=token(y), search=token(n)", -1},
	{"vocab duplicates keep the last value", `train-ai=y, train-ai, search=n, search="n"`, `train-ai=bool(1), search=string(n)`, -1},
	{"vocab parameters of an overwritten value go", "train-ai;allow=n, train-ai=y", "train-ai=token(y)", -1},
	{"vocab parameters on a boolean", `train-ai;has;parameters="?";`, "", 28},
	{"vocab parameters on a boolean without the stray semicolon", `train-ai;has;parameters="?"`, `train-ai=bool(1);has=bool(1);parameters=string(?)`, -1},
	{"vocab upper-case key", "Train-AI=n", "", 0},
	{"upper-case inside a key", "train-AI=n", "", 6},

	// RFC 9651 §3.2.
	{"rfc dictionary", `en="Applepie", da=:w4ZibGV0w6ZydGU=:`, "en=string(Applepie), da=bytes(\u00c6blet\u00e6rte)", -1},
	{"rfc booleans", "a=?0, b, c; foo=bar", "a=bool(0), b=bool(1), c=bool(1);foo=token(bar)", -1},
	{"rfc inner list member", "rating=1.5, feelings=(joy sadness)", "rating=dec(1.5), feelings=(token(joy) token(sadness))", -1},
	{"rfc mixed", "a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid", "a=(int(1) int(2)), b=int(3), c=int(4);aa=token(bb), d=(int(5) int(6));valid=bool(1)", -1},
	// RFC 9651 §3.1.1 and §3.1.2, as dictionary values.
	{"rfc inner list parameters", `a=("foo"; a=1;b=2);lvl=5, b=("bar" "baz");lvl=1`, "a=(string(foo);a=int(1);b=int(2));lvl=int(5), b=(string(bar) string(baz));lvl=int(1)", -1},
	{"rfc empty inner list", "a=()", "a=()", -1},
	{"rfc parameter on a token", "abc=;a=1", "", 4},
	// RFC 9651 §3.3.
	{"rfc integer", "a=42", "a=int(42)", -1},
	{"rfc negative decimal", "a=-4.5", "a=dec(-4.5)", -1},
	{"rfc date", "a=@1659578233", "a=date(1659578233)", -1},
	{"rfc display string", `a=%"This is intended for display to %c3%bcsers."`, "a=dstring(This is intended for display to \u00fcsers.)", -1},
	{"rfc token with slash", "a=foo123/456", "a=token(foo123/456)", -1},
	{"rfc string escapes", `a="a \"b\" \\c"`, `a=string(a "b" \c)`, -1},

	// §4.2 and §4.2.2: spaces, commas.
	{"empty", "", "", -1},
	{"spaces only", "   ", "", -1},
	{"leading and trailing spaces", "  a=1  ", "a=int(1)", -1},
	{"tabs around commas", "a=1\t,\tb=2\t", "a=int(1), b=int(2)", -1},
	{"leading tab", "\ta=1", "", 0},
	{"trailing comma", "a=1,", "", 4},
	{"leading comma", ",a=1", "", 0},
	{"two commas", "a=1,,b=2", "", 4},
	{"no comma", "a=1 b=2", "", 4},
	{"space before equals", "a =1", "", 2},
	{"space after equals", "a= 1", "", 2},
	{"space before parameter", "a=1 ;p", "", 4},
	{"space after semicolon", "a=1; p", "a=int(1);p=bool(1)", -1},
	{"duplicate keeps first position", "a=1, b=2, a=3", "a=int(3), b=int(2)", -1},
	{"duplicate parameter keeps first position", "a;x=1;y=2;x=3", "a=bool(1);x=int(3);y=int(2)", -1},
	{"key characters", "*a_b-c.d*9=1", "*a_b-c.d*9=int(1)", -1},
	{"key starting with a digit", "1a=1", "", 0},
	{"key starting with underscore", "_a=1", "", 0},
	{"many duplicate keys", strings.Repeat("k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, ", 3) + "k1=0",
		"k1=int(0), k2=int(2), k3=int(3), k4=int(4), k5=int(5), k6=int(6), k7=int(7), k8=int(8), k9=int(9)", -1},

	// §4.2.4: numbers.
	{"fifteen digits", "a=999999999999999", "a=int(999999999999999)", -1},
	{"sixteen digits", "a=1000000000000000", "", 17},
	{"negative fifteen digits", "a=-999999999999999", "a=int(-999999999999999)", -1},
	{"minus alone", "a=-", "", 3},
	{"minus letter", "a=-a", "", 3},
	{"decimal twelve digits", "a=123456789012.123", "a=dec(1.23456789012123e+11)", -1},
	{"decimal thirteen digits", "a=1234567890123.1", "", 15},
	{"decimal four fraction digits", "a=1.1234", "", 8},
	{"decimal trailing dot", "a=1.", "", 4},
	{"two dots", "a=1.2.3", "", 5},
	{"leading zeros", "a=007", "a=int(7)", -1},

	// §4.2.5: strings.
	{"unterminated string", `a="abc`, "", 6},
	{"bad escape", `a="\a"`, "", 4},
	{"control in string", "a=\"a\x01\"", "", 4},
	{"non-ASCII in string", "a=\"caf\xc3\xa9\"", "", 6},
	{"empty string", `a=""`, "a=string()", -1},

	// §4.2.6: tokens.
	{"token with star first", "a=*foo", "a=token(*foo)", -1},
	{"token upper case", "a=Y", "a=token(Y)", -1},
	{"token with colon", "a=y:n", "a=token(y:n)", -1},

	// §4.2.7: byte sequences.
	{"bytes", "a=:aGVsbG8=:", "a=bytes(hello)", -1},
	{"empty bytes", "a=::", "a=bytes()", -1},
	{"bytes bad character", "a=:aGVs!G8=:", "", 7},
	{"bytes unterminated", "a=:aGVsbG8=", "", 11},
	{"bytes one char", "a=:a:", "", 3},
	{"bytes padding too long", "a=:aGVsbA===:", "", 3},
	{"bytes padding in the middle", "a=:aG=sbA==:", "", 3},

	// §4.2.8: booleans.
	{"boolean true", "a=?1", "a=bool(1)", -1},
	{"boolean bad", "a=?2", "", 3},
	{"boolean bare question mark", "a=?", "", 3},

	// §4.2.9 and §4.2.10.
	{"date decimal", "a=@1.5", "", 3},
	{"date negative", "a=@-1", "a=date(-1)", -1},
	{"display string upper-case hex", `a=%"%C3%BC"`, "", 5},
	{"display string bad UTF-8", `a=%"%ff"`, "", 7},
	{"display string without quote", "a=%abc", "", 3},
	{"display string raw non-ASCII", "a=%\"\xc3\xbc\"", "", 4},

	// §4.2.1.2: inner lists.
	{"inner list unterminated", "a=(1 2", "", 6},
	{"inner list no space", "a=(1,2)", "", 4},
	{"inner list nested", "a=((1))", "", 3},
	{"inner list padded", "a=(  1  2  )", "a=(int(1) int(2))", -1},
	{"inner list tab", "a=(1\t2)", "", 4},

	// What the parser must not accept.
	{"value starting with a bad byte", "a=!", "", 2},
	{"non-ASCII key", "\xc3\xa9=1", "", 0},
	{"equals without a key", "=1", "", 0},
}

func TestParseDictionary(t *testing.T) {
	for _, tt := range dictionaryTests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseDictionary(tt.in)
			var se *SyntaxError
			switch {
			case tt.err >= 0 && !errors.As(err, &se):
				t.Fatalf("ParseDictionary(%q) = %s, %v; want a SyntaxError at byte %d", tt.in, describe(d), err, tt.err)
			case tt.err >= 0 && se.Offset != tt.err:
				t.Fatalf("ParseDictionary(%q): error %q at byte %d, want at byte %d", tt.in, se.Msg, se.Offset, tt.err)
			case tt.err < 0 && err != nil:
				t.Fatalf("ParseDictionary(%q): %v", tt.in, err)
			case tt.err < 0 && describe(d) != tt.want:
				t.Fatalf("ParseDictionary(%q)\n got %s\nwant %s", tt.in, describe(d), tt.want)
			}
		})
	}
}

// TestSyntaxErrorMessage: errors say where, and an upper-case letter in a key says
// that keys are lower case (the commonest mistake in Content-Usage lines).
func TestSyntaxErrorMessage(t *testing.T) {
	for in, want := range map[string]string{
		"Train-ai=n":  "structured field: upper-case letter 'T' where it needs a key: keys are lower case at byte 0",
		"train-AI=n":  "structured field: upper-case letter 'A' where it needs a comma between members: keys are lower case at byte 6",
		"train-ai=n,": "structured field: a comma ends the dictionary at byte 11",
	} {
		_, err := ParseDictionary(in)
		if err == nil || err.Error() != want {
			t.Errorf("ParseDictionary(%q): error %v, want %q", in, err, want)
		}
	}
}

// FuzzDictionary: the parser and github.com/dunglas/httpsfv, an implementation of
// RFC 9651 maintained on its own, accept the same inputs and read the same values
// from them. One difference is the RFC's to allow: httpsfv requires the '=' padding
// of a byte sequence, which RFC 9651 §4.2.7 says parsers SHOULD NOT require; the
// other, that this parser fails past its limits (TestLimits).
func FuzzDictionary(f *testing.F) {
	for _, tt := range dictionaryTests {
		f.Add(tt.in)
	}
	f.Add("a=:YQ:, b=:YWI=:, c=:YR==:")
	f.Add(`train-ai=n;x="y", search=(y n);q=?1, *=@-5, e=%"%e2%82%ac"`)
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ParseDictionary(in)
		ref, refErr := httpsfv.UnmarshalDictionary([]string{in})
		var se *SyntaxError
		if err != nil && (!errors.As(err, &se) || se.Offset < 0 || se.Offset > len(in)) {
			t.Fatalf("ParseDictionary(%q): error %v is not a SyntaxError within the input", in, err)
		}
		var b64 base64.CorruptInputError
		switch {
		case err != nil && refErr == nil && strings.Contains(se.Msg, "(sfv.Max"):
			// past a limit, which httpsfv does not have (TestLimits)
		case err != nil && refErr == nil:
			t.Fatalf("ParseDictionary(%q): %v; httpsfv reads %s", in, err, describeRef(ref))
		case err == nil && refErr != nil && !errors.As(refErr, &b64):
			t.Fatalf("ParseDictionary(%q) = %s; httpsfv fails: %v", in, describe(d), refErr)
		case err == nil && refErr == nil && describe(d) != describeRef(ref):
			t.Fatalf("ParseDictionary(%q)\n    got %s\nhttpsfv %s", in, describe(d), describeRef(ref))
		}
	})
}

// describe writes d in a notation that names each value's kind.
func describe(d Dictionary) string {
	var b strings.Builder
	for i, m := range d {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(m.Key + "=")
		describeItem(&b, m.Value)
	}
	return b.String()
}

func describeItem(b *strings.Builder, v Item) {
	switch v.Kind {
	case InnerList:
		b.WriteString("(")
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(" ")
			}
			describeItem(b, it)
		}
		b.WriteString(")")
	case Integer:
		n, _ := strconv.ParseInt(v.Text, 10, 64)
		fmt.Fprintf(b, "int(%d)", n)
	case Decimal:
		x, _ := strconv.ParseFloat(v.Text, 64)
		fmt.Fprintf(b, "dec(%g)", x)
	case Date:
		n, _ := strconv.ParseInt(v.Text, 10, 64)
		fmt.Fprintf(b, "date(%d)", n)
	default:
		fmt.Fprintf(b, "%s(%s)", map[Kind]string{Boolean: "bool", String: "string", Token: "token", ByteSequence: "bytes", DisplayString: "dstring"}[v.Kind], v.Text)
	}
	for _, p := range v.Params {
		b.WriteString(";" + p.Key + "=")
		describeItem(b, p.Value)
	}
}

// describeRef writes httpsfv's reading of a dictionary in describe's notation.
func describeRef(d *httpsfv.Dictionary) string {
	var b strings.Builder
	for i, k := range d.Names() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + "=")
		m, _ := d.Get(k)
		switch m := m.(type) {
		case httpsfv.Item:
			describeRefItem(&b, m)
		case httpsfv.InnerList:
			b.WriteString("(")
			for i, it := range m.Items {
				if i > 0 {
					b.WriteString(" ")
				}
				describeRefItem(&b, it)
			}
			b.WriteString(")")
			describeRefParams(&b, m.Params)
		}
	}
	return b.String()
}

func describeRefItem(b *strings.Builder, it httpsfv.Item) {
	describeRefBare(b, it.Value)
	describeRefParams(b, it.Params)
}

func describeRefParams(b *strings.Builder, ps *httpsfv.Params) {
	if ps == nil {
		return
	}
	for _, k := range ps.Names() {
		v, _ := ps.Get(k)
		b.WriteString(";" + k + "=")
		describeRefBare(b, v)
	}
}

func describeRefBare(b *strings.Builder, v any) {
	switch v := v.(type) {
	case bool:
		if v {
			b.WriteString("bool(1)")
		} else {
			b.WriteString("bool(0)")
		}
	case int64:
		fmt.Fprintf(b, "int(%d)", v)
	case float64:
		fmt.Fprintf(b, "dec(%g)", v)
	case string:
		fmt.Fprintf(b, "string(%s)", v)
	case httpsfv.Token:
		fmt.Fprintf(b, "token(%s)", string(v))
	case []byte:
		fmt.Fprintf(b, "bytes(%s)", v)
	case httpsfv.DisplayString:
		fmt.Fprintf(b, "dstring(%s)", string(v))
	default:
		if t, ok := v.(interface{ Unix() int64 }); ok {
			fmt.Fprintf(b, "date(%d)", t.Unix())
			return
		}
		fmt.Fprintf(b, "unknown(%T)", v)
	}
}

// TestLimits: a value at each limit parses, one past it fails with a SyntaxError that
// names the limit, and the 8 MiB header of one Inner List that cost 1.83 GB of
// allocations before the limits (issue 33) fails at once, allocating almost nothing.
func TestLimits(t *testing.T) {
	repeat := func(item string, n int, sep string) string {
		return strings.TrimSuffix(strings.Repeat(item+sep, n), sep)
	}
	// values is n members, each an inner list of MaxInnerList items: n*(MaxInnerList+1) values.
	values := func(n int) string {
		ms := make([]string, n)
		for i := range ms {
			ms[i] = fmt.Sprintf("k%d=(%s)", i, repeat("x", MaxInnerList, " "))
		}
		return strings.Join(ms, ",")
	}
	members := func(n int) string {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%d", i)
		}
		return strings.Join(keys, ",")
	}
	tests := []struct {
		name, in string
		limit    string // "" when it parses
	}{
		{"members at the limit", members(MaxMembers), ""},
		{"members past the limit", members(MaxMembers + 1), "sfv.MaxMembers"},
		{"a repeated key is one member", members(MaxMembers) + ",k0,k1", ""},
		{"inner list at the limit", "a=(" + repeat("x", MaxInnerList, " ") + ")", ""},
		{"inner list past the limit", "a=(" + repeat("x", MaxInnerList+1, " ") + ")", "sfv.MaxInnerList"},
		{"parameters at the limit", "a;" + strings.ReplaceAll(members(MaxParams), ",", ";"), ""},
		{"parameters past the limit", "a;" + strings.ReplaceAll(members(MaxParams+1), ",", ";"), "sfv.MaxParams"},
		{"values past the limit", values(MaxValues/MaxInnerList + 1), "sfv.MaxValues"},
		{"values at the limit", values(MaxValues / (MaxInnerList + 1)), ""},
		{"length at the limit", "a=" + strings.Repeat("x", MaxLength-2), ""},
		{"length past the limit", "a=" + strings.Repeat("x", MaxLength-1), "sfv.MaxLength"},
	}
	for _, tt := range tests {
		_, err := ParseDictionary(tt.in)
		var se *SyntaxError
		switch {
		case tt.limit == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.limit != "" && (!errors.As(err, &se) || !strings.Contains(se.Msg, tt.limit)):
			t.Errorf("%s: error %v, want a SyntaxError naming %s", tt.name, err, tt.limit)
		}
	}
	header := "a=(" + strings.Repeat("x ", 4<<20) + ")" // 8 MiB
	allocated := testing.AllocsPerRun(1, func() {
		if _, err := ParseDictionary(header); err == nil {
			t.Error("an 8 MiB inner list parses")
		}
	})
	if allocated > 4 {
		t.Errorf("an 8 MiB inner list took %v allocations to refuse", allocated)
	}
}
