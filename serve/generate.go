package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/signals"
)

// Writing a stance per purpose into a robots.txt (issue 36), as "robots generate
// -stance ai-train=block,search=allow FILE" does (signals.Generate): POST
// /v1/generate, and the tester's Generate, which puts the file written beside the
// editor's as the new version and compares the two (what changed, the verdicts of
// both, the answers per purpose of the new one). The stance is the command's -stance
// in the same words: "stance" in the API, the form's stance fields joined by commas.

// generateRequest is POST /v1/generate's body.
type generateRequest struct {
	Robots string `json:"robots"` // the file to write into ("" for a new one)
	Stance string `json:"stance"` // as -stance: "ai-train=block,search=allow,ai-user=allow"
}

// generateAnswer is POST /v1/generate's answer.
type generateAnswer struct {
	Robots string      `json:"robots"` // the file written
	Added  []addedLine `json:"added"`  // the lines added, by their numbers in it
	Notes  []string    `json:"notes"`  // what the stance could not do (a crawler told, not blocked)
}

type addedLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// generate writes stance into body within ctx (the request's work: the check decides
// every crawler of the registry on every path the rules name). A stance that would
// change another crawler's verdict is refused (422) with the notes in the message.
func (s *Server) generate(ctx context.Context, body, stance string) (*generateAnswer, error) {
	if strings.TrimSpace(stance) == "" {
		return nil, errorf(http.StatusBadRequest, "stance is required: PURPOSE=block|no|allow, separated by commas, for the purposes %v", signals.Purposes())
	}
	st, err := signals.ParseStance(stance)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	if len(body) > robots.DefaultMaxBytes {
		return nil, errorf(http.StatusRequestEntityTooLarge, "a file of %s, past the %s crawlers read (RFC 9309 §2.5): lines added at its end would not be read", sizeText(int64(len(body))), sizeText(robots.DefaultMaxBytes))
	}
	release, err := s.takeFileWork(len(body))
	if err != nil {
		return nil, err
	}
	defer release()
	turn := coreTurn{cores: s.decideCores}
	defer turn.release()
	if !turn.take(ctx) {
		return nil, s.stopped(context.Cause(ctx), errNotDecided(context.Cause(ctx)))
	}
	out, notes, err := signals.GenerateContext(ctx, body, st)
	if notes == nil {
		notes = []string{}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, s.stopped(context.Cause(ctx), errNotDecided(context.Cause(ctx)))
		}
		msg := err.Error()
		if len(notes) > 0 {
			msg += " (notes: " + strings.Join(notes, "; ") + ")"
		}
		return nil, &httpError{code: http.StatusUnprocessableEntity, msg: msg}
	}
	ans := &generateAnswer{Robots: out, Added: []addedLine{}, Notes: notes}
	lines := strings.Split(out, "\n")
	for _, n := range signals.Added(body, out) {
		ans.Added = append(ans.Added, addedLine{Line: n, Text: lines[n-1]})
	}
	return ans, nil
}

// handleGenerate answers POST /v1/generate.
func (s *Server) handleGenerate(r *http.Request) ([]byte, error) {
	var req generateRequest
	if err := readRequest(r, &req); err != nil {
		return nil, err
	}
	ans, err := s.generate(r.Context(), req.Robots, req.Stance)
	if err != nil {
		return nil, err
	}
	return json.Marshal(ans)
}

// generatedView is what the tester's Generate wrote, above the comparison.
type generatedView struct {
	Stance string
	Added  int
	Notes  []string
}

// generateTest is the tester's Generate: the stance written into the editor's file,
// put beside it as the new version, and the two compared as Test compares them (the
// URLs listed, or "/" when none). A stance that would change another crawler's
// verdict is an error naming it, with the notes.
func (s *Server) generateTest(r *http.Request, f *pageForm) (*pageResult, error) {
	var picked []string
	for _, v := range f.Stance {
		if v = strings.TrimSpace(v); v != "" {
			picked = append(picked, v)
		}
	}
	if len(picked) == 0 {
		return nil, errorf(http.StatusBadRequest, "choose allow, no or block for at least one purpose to write")
	}
	stance := strings.Join(picked, ",")
	ans, err := s.generate(r.Context(), f.Robots, stance)
	if err != nil {
		return nil, err
	}
	f.RobotsNew, f.Diff, f.Action = ans.Robots, true, "test"
	if strings.TrimSpace(f.URLs) == "" {
		f.URLs = "/"
	}
	res, err := s.boundedTest(r, f)
	if err != nil {
		return nil, err
	}
	res.Generated = &generatedView{Stance: stance, Added: len(ans.Added), Notes: ans.Notes}
	return res, nil
}

// stanceChoice is one purpose of the tester's Generate step.
type stanceChoice struct {
	Purpose, Title string
	Options        []stanceOption
}

// stanceOption is one stance of a purpose: Value as -stance writes it ("ai-train=no").
type stanceOption struct {
	Value, Title string
}

// stanceChoices are the purposes of the Generate step, in signals.Purposes' order.
func stanceChoices() []stanceChoice {
	titles := map[signals.Purpose]string{
		signals.Search:   "Search engines",
		signals.AITrain:  "AI training",
		signals.AIInput:  "AI input (answers, RAG)",
		signals.AISearch: "AI search",
		signals.AIUser:   "Assistants fetching for a person",
	}
	var out []stanceChoice
	for _, p := range signals.Purposes() {
		c := stanceChoice{Purpose: string(p), Title: titles[p]}
		for _, st := range []signals.Stance{signals.Allow, signals.NoUse, signals.Block} {
			c.Options = append(c.Options, stanceOption{Value: string(p) + "=" + string(st), Title: string(st)})
		}
		out = append(out, c)
	}
	return out
}
