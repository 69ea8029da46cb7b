package serve

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/signals"
)

// TestGenerateAPI: POST /v1/generate writes the stance as "robots generate" does
// (signals.Generate, the same file byte for byte), lists the lines it added, and
// refuses (422, naming the crawler) a stance that would change another crawler's
// verdict: a group naming GPTBot with Googlebot cannot block training alone.
func TestGenerateAPI(t *testing.T) {
	s, _ := start(t, Config{})
	file := "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nAllow: /public/\n"
	const stance = "ai-train=block,search=allow,ai-user=allow"
	body, _ := json.Marshal(map[string]string{"robots": file, "stance": stance})
	var ans struct {
		Robots string `json:"robots"`
		Added  []struct {
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"added"`
		Notes []string `json:"notes"`
	}
	if code := post(t, s, "/v1/generate", string(body), &ans); code != 200 {
		t.Fatalf("status %d", code)
	}
	st, _ := signals.ParseStance(stance)
	want, wantNotes, err := signals.Generate(file, st)
	if err != nil || ans.Robots != want || len(ans.Notes) != len(wantNotes) {
		t.Errorf("robots %q, %d notes; want the command's %q, %d notes (%v)", ans.Robots, len(ans.Notes), want, len(wantNotes), err)
	}
	lines := strings.Split(ans.Robots, "\n")
	old := strings.Count(file, "\n")
	if len(ans.Added) != strings.Count(ans.Robots, "\n")-old {
		t.Errorf("%d lines added listed, the file grew by %d", len(ans.Added), strings.Count(ans.Robots, "\n")-old)
	}
	for _, a := range ans.Added {
		if lines[a.Line-1] != a.Text {
			t.Errorf("added line %d is %q in the file, %q in the list", a.Line, lines[a.Line-1], a.Text)
		}
	}
	r := robots.ParseString(ans.Robots)
	if r.Allowed("GPTBot", "https://example.com/x") || !r.Allowed("Googlebot", "https://example.com/x") {
		t.Errorf("GPTBot must be blocked and Googlebot not:\n%s", ans.Robots)
	}
	var e struct {
		Error string `json:"error"`
	}
	body, _ = json.Marshal(map[string]string{"robots": "User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /tmp/\n", "stance": "ai-train=block"})
	if code := post(t, s, "/v1/generate", string(body), &e); code != 422 || !strings.Contains(e.Error, "Googlebot") {
		t.Errorf("shared group: status %d, %q; want 422 naming Googlebot", code, e.Error)
	}
	for _, bad := range []string{`{"robots":""}`, `{"stance":"ai-train=maybe"}`, `{"stance":"ai-train=no","agent":"x"}`} {
		if code := post(t, s, "/v1/generate", bad, &e); code != 400 {
			t.Errorf("%s: status %d, want 400", bad, code)
		}
	}
}

// TestPageGenerate: the tester's Generate writes the stance chosen per purpose into
// the editor's file, puts the result beside it as the new version and compares the
// two: the lines added are marked, the verdicts of both shown (GPTBot blocked in the
// new version only), and the answers per purpose are the new version's. A stance that
// would change another crawler's verdict is refused with the crawler named, and the
// choices stay as they were.
func TestPageGenerate(t *testing.T) {
	s, _ := start(t, Config{})
	file := "User-agent: *\nDisallow: /private/\n"
	form := url.Values{"action": {"generate"}, "robots": {file}, "urls": {"/a"}, "agent": {"GPTBot", "Googlebot"},
		"stance": {"", "ai-train=block", "", "", "ai-user=allow"}}
	code, page := postPage(t, s, form)
	if code != 200 {
		t.Fatalf("status %d:\n%.3000s", code, page)
	}
	for _, want := range []string{
		`id="generated"`, "Written: the stance ai-train=block,ai-user=allow, ",
		`<option value="ai-train=block" selected>block</option>`,
		"By purpose, in the new version",
		"Content-Usage: train-ai=n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Every line of the new version but the old file's two is added, marked so and
	// counted in the sentence above the comparison.
	newFile := page[strings.Index(page, `id="file-b"`):]
	newFile = newFile[:strings.Index(newFile, "</section>")]
	rows, added := strings.Count(newFile, `<tr id="b`), strings.Count(newFile, ` add"><td class="n">`)
	if rows < 5 || added != rows-2 || !strings.Contains(page, fmt.Sprintf("ai-user=allow, %d lines added</strong>", added)) {
		t.Errorf("new version of %d lines, %d marked added, want %d said added", rows, added, rows-2)
	}
	if !strings.Contains(strings.Join(stanceRows(t, page), "\n"), "/a|ai-train|blocked|GPTBot") {
		t.Errorf("answers per purpose: %q, want GPTBot blocked for ai-train in the new version", stanceRows(t, page))
	}
	if !strings.Contains(page, `<tr class="changed">`) {
		t.Errorf("GPTBot's verdict on /a changes (allowed → disallowed): no changed row")
	}
	form.Set("stance", "")
	if code, page := postPage(t, s, form); code != 400 || !strings.Contains(page, "at least one purpose") {
		t.Errorf("no stance chosen: status %d, want 400 asking for one", code)
	}
	form["stance"] = []string{"", "ai-train=block", "", "", "ai-user=allow"}
	form.Set("robots", "User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /tmp/\n")
	code, page = postPage(t, s, form)
	if code != 422 || !strings.Contains(page, "Googlebot") || !strings.Contains(page, `id="error"`) || !strings.Contains(page, `<option value="ai-train=block" selected>`) {
		t.Errorf("refusal: status %d, want 422 with the error naming Googlebot and the choices kept:\n%.2000s", code, page)
	}
}
