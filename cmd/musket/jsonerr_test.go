package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONEarlyErrors: with -json, an error that ends a command before
// it prints anything still gives one JSON object on standard output,
// with the message standard error gives and the exit status; a command
// that printed its own objects gets no extra one.
func TestJSONEarlyErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // part of the error message
	}{
		{[]string{"litmus", "-json", "testdata/no-such-file.litmus"}, "no-such-file.litmus"},
		{[]string{"litmus", "-json", "-model", "no-such-model", "../../examples/litmus/SB.litmus"}, "no-such-model"},
		{[]string{"check", "-json", "../../examples"}, "is a folder"},
		{[]string{"param", "--json", "testdata/no-such-file.cub"}, "no-such-file.cub"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := dispatch(c.args, &out, &errb)
			if code == 0 {
				t.Fatalf("exit status 0, want an error; stderr %q", errb.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			var obj map[string]any
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &obj); err != nil {
				t.Fatalf("stdout %q is not JSON: %v", out.String(), err)
			}
			if len(lines) == 1 {
				if msg, _ := obj["error"].(string); !strings.Contains(msg, c.want) {
					t.Errorf("error %q, want it to name %q", msg, c.want)
				}
				if st, _ := obj["exit_status"].(float64); int(st) != code {
					t.Errorf("exit_status %v, want %d", obj["exit_status"], code)
				}
			}
		})
	}
	for _, args := range [][]string{
		{"check", "-json", "testdata/no-such-file.c"}, // check says it in its own objects
	} {
		var out, errb bytes.Buffer
		dispatch(args, &out, &errb)
		if strings.Count(out.String(), `"exit_status"`) != 2 { // its object and its summary
			t.Errorf("%v: stdout %q, want check's own two objects only", args, out.String())
		}
	}
	if wantsJSON([]string{"--", "-json"}) || !wantsJSON([]string{"-v", "--json", "x"}) {
		t.Error("wantsJSON reads -json after -- or misses --json")
	}
}
