package audit

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestTotalsJSON: every field of Totals reaches the report's JSON under its tag's
// name with its value, the per-crawler counts keyed by crawler. MarshalJSON copies
// the totals field by field into totalsJSON (to key BlockedURLs by crawler), so a
// field added to Totals alone would vanish from the JSON without this test.
func TestTotalsJSON(t *testing.T) {
	agents := []string{"Googlebot", "GPTBot"}
	var tot Totals
	tv := reflect.ValueOf(&tot).Elem()
	for i := range tv.NumField() {
		if f := tv.Field(i); f.Kind() == reflect.Int {
			f.SetInt(int64(100 + i))
		}
	}
	tot.BlockedURLs = []int{7, 0}
	b, err := json.Marshal(&Report{Agents: agents, Totals: tot})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Totals map[string]json.RawMessage `json:"totals"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	tt := tv.Type()
	for i := range tt.NumField() {
		name, _, _ := strings.Cut(tt.Field(i).Tag.Get("json"), ",")
		want, _ := json.Marshal(tv.Field(i).Interface())
		if name == "blocked_urls" {
			want = []byte(`{"Googlebot":7,"GPTBot":0}`)
		}
		if string(got.Totals[name]) != string(want) {
			t.Errorf("totals.%s = %s, want %s (Totals.%s)", name, got.Totals[name], want, tt.Field(i).Name)
		}
	}
	if len(got.Totals) != tt.NumField() {
		t.Errorf("totals has %d fields, Totals %d: %s", len(got.Totals), tt.NumField(), b)
	}
}
