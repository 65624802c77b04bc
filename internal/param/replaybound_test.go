package param

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReplayWordsBound: the replay of a trace keeps at most words words
// of states a step, and a replay that fails after that bound dropped
// states (or after its total, replayWork scaled the same way) could not
// confirm the trace: capped, not a refutation. confirm_budget.cub's trace
// does not replay in its order; with the default bound nothing is
// dropped and the failure is a real one (not capped); with a bound of
// one word (one state a step) it is capped. No clock is read: the bounds
// count words.
func TestReplayWordsBound(t *testing.T) {
	sys, err := ParseFile(filepath.Join("testdata", "selfcheck", "confirm_budget.cub"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Verify(context.Background(), sys, Options{Timeout: 20 * time.Second})
	if err != nil || res.Verdict != Unsafe {
		t.Fatalf("%v %v", res.Verdict, err)
	}
	never := func() bool { return false }
	ok, why, capped := replayTrace(sys, res, "", 20000, replayWords, never)
	if ok || capped {
		t.Fatalf("default bound: replayed %v, capped %v (%s); want a failure that is not capped", ok, capped, why)
	}
	ok, why, capped = replayTrace(sys, res, "", 20000, 1, never)
	if ok || !capped {
		t.Fatalf("one word: replayed %v, capped %v (%s); want capped", ok, capped, why)
	}
	if !strings.Contains(why, "kept at most 1 states") && !strings.Contains(why, "its bound") {
		t.Errorf("the reason should name the bound: %s", why)
	}
	// a trace that replays still does under a bound that drops nothing
	// it needs, and SelfCheck's small bound reaches the replay
	own, err := ParseFile(filepath.Join("testdata", "selfcheck", "own_buffers.cub"))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Verify(context.Background(), own, Options{Timeout: 20 * time.Second})
	if err != nil || r2.Verdict != Unsafe {
		t.Fatalf("%v %v", r2.Verdict, err)
	}
	if ok, why, _ := replayTrace(own, r2, "", 20000, replayWords, never); !ok {
		t.Fatalf("own_buffers does not replay: %s", why)
	}
	if cc := SelfCheck(context.Background(), own, r2, Options{replayWords: 1 << 12}, 20000); !cc.OK() {
		t.Errorf("%s", cc)
	}
}

// TestReplayBufCap: the buffers of a replay hold the writes of one
// process of the trace, not of all (lamport4us's 126 steps: 200 writes
// counted together, 134 by its busiest process); a step whose
// transitions of that name have different actors counts for everyone.
func TestReplayBufCap(t *testing.T) {
	src := "weak var X : int\nweak array A[proc] : int\nunsafe (p) { p@X = 9 }\n" +
		"transition w ([i]) { X := 1 }\n" +
		"transition all ([i]) { A[j] := case | _ : 2 }\n" +
		"transition two ([i]) { X := 1; A[i] := 1 }\n"
	sys, err := Load("b.cub", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	trans := transByName(sys)
	tests := []struct {
		name  string
		trace []Step
		n     int32
		want  int
	}{
		{"few writes: the floor", []Step{{Trans: "w", Args: []int32{1}}}, 2, selfBufCap},
		{"one process", []Step{{"two", []int32{1}}, {"two", []int32{1}}, {"w", []int32{1}}}, 2, 5},
		{"two processes", []Step{{"two", []int32{1}}, {"two", []int32{2}}, {"two", []int32{1}}, {"w", []int32{2}}}, 2, 4},
		{"every cell", []Step{{"all", []int32{1}}, {"all", []int32{1}}, {"w", []int32{2}}}, 3, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := replayBufCap(&Result{Trace: tc.trace}, trans, tc.n); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
