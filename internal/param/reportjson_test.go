package param

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteJSONStatus: a search stopped by its time limit has the status
// "timeout", as every command's JSON says it (robust7: it was "limit"
// here alone); the other limits are "limit", a verdict "done".
func TestWriteJSONStatus(t *testing.T) {
	for _, tc := range []struct {
		v             Verdict
		status, limit string
	}{
		{Safe, "done", ""},
		{Timeout, "timeout", "timeout"},
		{NodeLimit, "limit", NodeLimit.String()},
		{DepthLimit, "limit", DepthLimit.String()},
	} {
		var b bytes.Buffer
		if err := WriteJSON(&b, "x.cub", &Result{Verdict: tc.v}, nil); err != nil {
			t.Fatal(err)
		}
		var j jsonResult
		if err := json.Unmarshal(b.Bytes(), &j); err != nil {
			t.Fatal(err)
		}
		if j.Status != tc.status || j.Limit != tc.limit {
			t.Errorf("%v: status %q, limit %q; want %q, %q", tc.v, j.Status, j.Limit, tc.status, tc.limit)
		}
	}
}
