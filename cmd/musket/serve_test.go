package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/playground"
	"github.com/musket-verify/musket/internal/serve"
)

// TestServeCommands runs check, param and compare through musket serve's
// API, in the process, with the server's own folder for the files.
func TestServeCommands(t *testing.T) {
	hs := httptest.NewServer(serve.New(serve.Config{Workers: 1, Command: serveCommand}).Handler())
	defer hs.Close()
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name   string
		req    playground.Request
		status string
		exit   int
		want   string
	}{
		{"param", playground.Request{Command: "param", Name: "sb.cub", Test: read("../../internal/playground/web/examples/sb.cub")}, "done", 1, "UNSAFE"},
		{"check .pts", playground.Request{Command: "check", Name: "mp.pts", Test: read("../../internal/playground/web/examples/mp.pts"), Target: "power"}, "done", 0, "UNREACHABLE"},
		{"check assembly", playground.Request{Command: "check", Name: "mp.litmus", Test: read("../../examples/asm/mp.litmus"), Model: "pso", Bound: 1}, "done", 1, "REACHABLE"},
		{"compare", playground.Request{Command: "compare", Name: "mp.pts", Test: read("../../internal/playground/web/examples/mp.pts"), Source: "tso", Target: "power"}, "done", 0, ""},
		{"param, not a .cub", playground.Request{Command: "param", Name: "x.litmus", Test: "X86 x"}, "error", 2, "Cubicle system"},
		{"C including a file by path", playground.Request{Command: "check", Name: "p.c", Test: "#include \"/etc/passwd\"\nint main(){}\n"}, "error", 2, "p.c:1:1:"},
		{"a model by path", playground.Request{Command: "check", Name: "mp.pts", Test: "{x}\n", Model: "../x.cat"}, "error", 2, "not a path"},
		{"C including a file by path after a comment", playground.Request{Command: "check", Name: "p.c", Test: "#include <stdatomic.h>\n/**/ #include \"/etc/passwd\"\nint main(){}\n"}, "error", 2, "p.c:2:1:"},
		{"a model including a file by path after a comment", playground.Request{Command: "check", Name: "mp.pts", Test: read("../../internal/playground/web/examples/mp.pts"),
			Cat: "include (* x *) \"/etc/passwd\"\nacyclic po | rf | co | fr\n"}, "error", 2, "cannot include \"/etc/passwd\""},
		{"a C error at its line", playground.Request{Command: "check", Name: "p.c", Test: "#include <stdatomic.h>\nint main(void) {\n  return oops;\n}\n"}, "error", 2, "oops"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(c.req)
			r, err := http.Post(hs.URL+"/api/run", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Body.Close()
			var resp struct {
				Status, Output, Stderr string
				Exit                   int
				Diags                  []playground.Diag
			}
			if err := json.NewDecoder(r.Body).Decode(&resp); err != nil {
				t.Fatal(err)
			}
			if resp.Status != c.status || resp.Exit != c.exit || !strings.Contains(resp.Output+resp.Stderr, c.want) {
				t.Errorf("got %s exit %d %q %q, want %s exit %d with %q", resp.Status, resp.Exit, resp.Output, resp.Stderr, c.status, c.exit, c.want)
			}
			// An error in the test is marked at its line.
			if c.status == "error" && strings.Contains(c.want, "p.c:2:1") || c.name == "a C error at its line" {
				want := map[bool]int{true: 2, false: 3}[strings.Contains(c.want, "p.c:2:1")]
				if len(resp.Diags) == 0 || resp.Diags[0].File != "test" || resp.Diags[0].Line != want {
					t.Errorf("diagnostics %+v, want one in the test at line %d", resp.Diags, want)
				}
			}
			if strings.Contains(resp.Output+resp.Stderr, os.TempDir()) {
				t.Errorf("the server's folder shows: %q", resp.Output+resp.Stderr)
			}
		})
	}
}

// TestServeProcessLimit: serve's process limit is a base and -mem per
// worker, capped by a -memory given (it overrode it: runs under
// "-memory 128M" were stopped at "-memory 160MiB"; robust7).
func TestServeProcessLimit(t *testing.T) {
	t.Cleanup(applyResourceDefaults)
	for _, tc := range []struct {
		args []string
		want int64
	}{
		{nil, 64<<20 + 2*(48<<20)},
		{[]string{"-memory", "128M"}, 128 << 20},
		{[]string{"-memory", "1G"}, 64<<20 + 2*(48<<20)},
		{[]string{"-memory", "0"}, 64<<20 + 2*(48<<20)},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		if _, code, ok := parseCommand(fs, tc.args); !ok {
			t.Fatalf("%v: exit %d", tc.args, code)
		}
		srv := serve.New(serve.Config{MemLimit: 48 << 20, Workers: 2})
		serveProcessLimit(fs, srv)
		if got := memlimit.Limit(); got != tc.want {
			t.Errorf("%v: limit %s, want %s", tc.args, memlimit.Format(got), memlimit.Format(tc.want))
		}
		applyResourceDefaults()
	}
}
