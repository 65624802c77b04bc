//go:build !(js && wasm)

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnswer runs the worker's request path natively (answer, as the
// native build runs it over a folder): the answer's status, exit and
// verdict, and the error of a bad request or another command.
func TestAnswer(t *testing.T) {
	const sb = "X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n"
	req := func(v any) []byte { b, _ := json.Marshal(v); return b }
	for _, c := range []struct {
		name, req      string
		status         string
		exit           int
		verdict, inOut string
	}{
		{"SB under TSO", string(req(map[string]string{"name": "SB.litmus", "test": sb, "engine": "enum"})), "done", 0, "Ok", "Observation SB Sometimes"},
		{"any engine is the explicit one", string(req(map[string]string{"name": "SB.litmus", "test": sb, "engine": "smt"})), "done", 0, "Ok", ""},
		{"not JSON", "{", "error", 2, "", "bad request"},
		{"another command", string(req(map[string]string{"command": "check", "name": "SB.litmus", "test": sb})), "error", 2, "", "needs musket serve"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r struct {
				Status, Output string
				Exit           int
				Result         *struct{ Verdict string }
			}
			out := answer([]byte("prefix"), []byte(c.req))
			if !strings.HasPrefix(string(out), "prefix{") {
				t.Fatalf("answer does not append to dst: %.40q", out)
			}
			if err := json.Unmarshal(out[len("prefix"):], &r); err != nil {
				t.Fatalf("answer is not JSON: %v: %s", err, out)
			}
			verdict := ""
			if r.Result != nil {
				verdict = r.Result.Verdict
			}
			if r.Status != c.status || r.Exit != c.exit || verdict != c.verdict || !strings.Contains(r.Output, c.inOut) {
				t.Errorf("status %q, exit %d, verdict %q, output %q; want %q, %d, %q, output with %q", r.Status, r.Exit, verdict, r.Output, c.status, c.exit, c.verdict, c.inOut)
			}
		})
	}
}
