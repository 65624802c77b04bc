package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParamCommand runs 'musket param' on small systems: exit status,
// text and JSON output, -invariants, -model and the time limit.
func TestParamCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	safe := write("safe.cub", `array Crit[proc] : bool
var Turn : proc
init (i) { Crit[i] = False }
unsafe (i j) { Crit[i] = True && Crit[j] = True }
transition enter (i) requires { Turn = i && Crit[i] = False } { Crit[i] := True }
transition leave (i j) requires { Crit[i] = True } { Crit[i] := False; Turn := j }
`)
	unsafe := write("unsafe.cub", `array Crit[proc] : bool
init (i) { Crit[i] = False }
unsafe (i j) { Crit[i] = True && Crit[j] = True }
transition enter (i) { Crit[i] := True }
`)
	mp := write("mp.cub", `type loc = L1 | L2 | L3
weak var Data : int
weak var Flag : bool
array PC[proc] : loc
array R[proc] : int
init (p) { Data = 0 && Flag = False && PC[p] = L1 && R[p] = 5 }
unsafe (q) { q = #2 && PC[q] = L3 && R[q] = 0 }
transition w1 ([p]) requires { p = #1 && PC[p] = L1 } { Data := 1; PC[p] := L2 }
transition w2 ([p]) requires { p = #1 && PC[p] = L2 } { Flag := True; PC[p] := L3 }
transition r1 ([q]) requires { q = #2 && PC[q] = L1 && Flag = True } { PC[q] := L2 }
transition r2 ([q]) requires { q = #2 && PC[q] = L2 } { R[q] := Data; PC[q] := L3 }
`)
	bad := write("bad.cub", "var X : bool\nunsafe () { X = 1 }\n")
	diverge := write("diverge.cub", `var X : int
var Y : int
init () { X = 0 && Y = 0 }
unsafe () { X = 1 && Y = 0 }
transition t () { X := X + 2; Y := Y + 2 }
`)
	tests := []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{"safe", []string{"param", safe}, 0, []string{"The system is SAFE"}},
		{"unsafe", []string{"param", unsafe}, 1, []string{"The system is UNSAFE", "Error trace: enter("}},
		{"bad input", []string{"param", bad}, 2, nil},
		{"timeout", []string{"param", "-timeout", "300ms", diverge}, 3, []string{"timeout"}},
		{"invariants", []string{"param", "-invariants", safe}, 0, []string{"(* Inductive invariant", "invariant (z1 z2) { Crit[z1] = True && Crit[z2] = True }"}},
		{"tso", []string{"param", mp}, 0, []string{"SAFE"}},
		{"pso", []string{"param", "-model", "pso", mp}, 1, []string{"UNSAFE"}},
		{"unknown model", []string{"param", "-model", "arm", mp}, 2, nil},
		{"negative timeout", []string{"param", "-timeout", "-1s", safe}, 2, nil},
		{"memprofile", []string{"param", "-memprofile", filepath.Join(dir, "mem.prof"), safe}, 0, []string{"SAFE"}},
		{"bad memprofile", []string{"param", "-memprofile", filepath.Join(dir, "none", "mem.prof"), safe}, 2, nil},
		{"bad cpuprofile", []string{"param", "-cpuprofile", filepath.Join(dir, "none", "cpu.prof"), safe}, 2, nil},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := dispatch(tc.args, &out, &errb)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stdout %s, stderr %s)", tc.name, code, tc.code, out.String(), errb.String())
		}
		for _, w := range tc.out {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, out.String())
			}
		}
	}

	if st, err := os.Stat(filepath.Join(dir, "mem.prof")); err != nil || st.Size() == 0 {
		t.Errorf("-memprofile wrote no profile (%v)", err)
	}

	// -json: one JSON object on one line
	for _, f := range []string{safe, unsafe, diverge} {
		var out, errb bytes.Buffer
		dispatch([]string{"param", "-json", "-invariants", "-timeout", "300ms", f}, &out, &errb)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 1 {
			t.Fatalf("%s: -json printed %d lines:\n%s", f, len(lines), out.String())
		}
		var j map[string]any
		if err := json.Unmarshal([]byte(lines[0]), &j); err != nil {
			t.Fatalf("%s: %v: %s", f, err, lines[0])
		}
		want := map[string]string{safe: "safe", unsafe: "unsafe", diverge: "unknown"}[f]
		if j["verdict"] != want {
			t.Errorf("%s: verdict %v, want %s", f, j["verdict"], want)
		}
		if f == safe && j["invariant"] == nil {
			t.Errorf("%s: no invariant in %s", f, lines[0])
		}
	}
}

// TestParamTicks: the progress line is drawn again with the latest
// figures without a call from the search (robust6: -brab's exploration
// showed nothing for seconds), and stop ends it. No time is asserted:
// the test waits for a tick however long it takes.
func TestParamTicks(t *testing.T) {
	draws := make(chan [2]int, 1000)
	update, stop := paramTicks(func(v, q int) {
		select {
		case draws <- [2]int{v, q}:
		default:
		}
	}, time.Nanosecond)
	update(5, 2)
	for d := <-draws; d != [2]int{5, 2}; d = <-draws { // ticks before the update drew 0, 0
		if d != [2]int{0, 0} {
			t.Fatalf("drew %v before the update", d)
		}
	}
	if d := <-draws; d != [2]int{5, 2} {
		t.Errorf("a tick drew %v, want the latest figures 5, 2", d)
	}
	stop()
	stop() // twice is fine
}

// TestParamProgress: the progress line clears the end of the line (a
// shorter line left stale characters) and its node count never goes
// back when the search restarts.
func TestParamProgress(t *testing.T) {
	var b strings.Builder
	p := paramProgress(&b, "a.cub", func() time.Duration { return 1500 * time.Millisecond })
	p(120, 30)
	p(5, 2) // a restart
	want := "\r\033[Ka.cub: 120 nodes visited, 30 queued, 1.5s" + "\r\033[Ka.cub: 125 nodes visited (2 searches), 2 queued, 1.5s"
	if b.String() != want {
		t.Errorf("progress %q, want %q", b.String(), want)
	}
}
