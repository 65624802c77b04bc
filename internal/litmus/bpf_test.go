package litmus

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

func TestBPFRegName(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		ok      bool
	}{
		{"r0", "r0", true}, {"R9", "r9", true}, {"r10", "fp", true}, {"fp", "fp", true}, {"FP", "fp", true},
		{"r11", "", false}, {"r", "", false}, {"x0", "", false}, {"$2", "", false},
	} {
		out, ok := bpfFrontend{}.RegName(tc.in)
		if out != tc.out || ok != tc.ok {
			t.Errorf("RegName(%q) = %q, %v; want %q, %v", tc.in, out, ok, tc.out, tc.ok)
		}
	}
}

func TestBPFErrors(t *testing.T) {
	checkThreadErrors(t, bpfFrontend{}, true, []srcWant{
		{"frob r1", `t:1:1: unknown BPF instruction "frob r1"`},
		{"r1 = *(u32 *)(r2 + 4)", `t:1:18: unsupported BPF access at offset 4 from r2: parts of locations (mixed-size accesses) are not supported`},
		{"r1 = *(u33 *)(r2 + 0)", `t:1:8: expected a width (u8, u16, u32, u64) in BPF instruction "r1 = *(u33 *)(r2 + 0)", found "u33"`},
		{"r1 s>>= 2", `t:1:4: unsupported BPF instruction s>>= (an arithmetic shift, which herd7 does not implement)`},
		{"lock *(u32 *)(r2 + 0) -= r1", `t:1:23: expected one of += &= |= ^= in BPF instruction "lock *(u32 *)(r2 + 0) -= r1", found "-="`},
		{"if r1 > 2 goto L", `t:1:7: unexpected '>' in BPF instruction`},
		{"if r1 == 2 goto L", `t:1:1: jump to undefined label L`},
		{"r0 = cmpxchg_64(r1 + 0, r2, r3)", `t:1:25: expected r0 in BPF instruction "r0 = cmpxchg_64(r1 + 0, r2, r3)", found "r2"`},
		{"r1 = r2 r3", `t:1:9: expected the end of the instruction in BPF instruction "r1 = r2 r3", found "r3"`},
		{"r1 = #1", `t:1:6: unexpected '#' in BPF instruction`},
		{"*(u32 *)(r1 + 0) =", `t:1:19: expected an integer in BPF instruction "*(u32 *)(r1 + 0) =", found the end of the instruction`},
	})
}

// TestBPFTranslate checks herd7's readings: a fetching atomic returns the
// old value in its source register, cmpxchg fails with a plain read, >>=
// is a logical shift, and lock is one event.
func TestBPFTranslate(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"r3 = atomic_fetch_add((u32 *)(r2 + 0), r1)", "r1 = rmw"},
		{"r0 = cmpxchg_64(r1 + 0, r0, r2)", "r0 = rmw.X.SC/.X.SC [r1] r2 if (old == r0)"},
		{"lock *(u64 *)(r1 + 0) += r2", " = rmw.X/.X [r1] (old + r2)"},
		{"L: r1 >>= 3", ">>"},
	} {
		got, err := threadCode(t, bpfFrontend{}, tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: code %q, want %q in it", tc.src, got, tc.want)
		}
	}
}

// TestBPFEvents checks the event shapes of the atomics: the fetching ones
// and lock are one event (Single), cmpxchg two that fail as a plain read.
func TestBPFEvents(t *testing.T) {
	for _, tc := range []struct {
		src          string
		single, fail bool
	}{
		{"r1 = atomic_fetch_xor((u64 *)(r2 + 0), r1)", true, false},
		{"r1 = xchg_32_32(r2 + 0, r1)", true, false},
		{"lock *(u32 *)(r2 + 0) |= r1", true, false},
		{"r0 = cmpxchg32_32(r2 + 0, r0, r1)", false, true},
	} {
		th, err := bpfFrontend{}.Thread(0, []Cell{{Text: tc.src, Pos: prog.Pos{File: "t", Line: 1, Col: 1}}})
		if err != nil || len(th.Code) != 1 {
			t.Errorf("%s: %v, %d instructions", tc.src, err, len(th.Code))
			continue
		}
		r, ok := th.Code[0].(prog.RMW)
		if !ok || r.Single != tc.single || (r.FailRTags != nil && len(r.FailRTags) == 0) != tc.fail {
			t.Errorf("%s: %#v; want single %v, plain failing read %v", tc.src, th.Code[0], tc.single, tc.fail)
		}
	}
}
