package enum

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

func check(t *testing.T, src, model string) *result.Result {
	t.Helper()
	lt, err := litmus.Parse("test.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.LoadBuiltin(model)
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup(lt.Arch)
	r := Run(context.Background(), lt, m, model, Options{TagNames: fe.Tags()})
	if r.Status != result.Done {
		t.Fatalf("status %s: %v", r.Status, r.Err)
	}
	return r
}

func states(r *result.Result) string {
	var lines []string
	for _, s := range r.States {
		var b strings.Builder
		for i, ref := range r.Observed {
			b.WriteString(ref.String() + "=" + s[i].String() + ";")
		}
		lines = append(lines, b.String())
	}
	return strings.Join(lines, " ")
}

func TestClassicShapes(t *testing.T) {
	tests := []struct {
		name, model, src string
		ok               bool
		states           string
	}{
		{"SB/tso", "tso", `X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)`, true, "0:EAX=0;1:EAX=0; 0:EAX=0;1:EAX=1; 0:EAX=1;1:EAX=0; 0:EAX=1;1:EAX=1;"},
		{"SB/sc", "sc", `X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)`, false, "0:EAX=0;1:EAX=1; 0:EAX=1;1:EAX=0; 0:EAX=1;1:EAX=1;"},
		{"MP/tso", "tso", `X86 MP
{ }
 P0         | P1          ;
 MOV [x],$1 | MOV EAX,[y] ;
 MOV [y],$1 | MOV EBX,[x] ;
exists (1:EAX=1 /\ 1:EBX=0)`, false, "1:EAX=0;1:EBX=0; 1:EAX=0;1:EBX=1; 1:EAX=1;1:EBX=1;"},
		{"2+2W final memory", "tso", `X86 2+2W
{ }
 P0         | P1         ;
 MOV [x],$1 | MOV [y],$1 ;
 MOV [y],$2 | MOV [x],$2 ;
exists (x=1 /\ y=1)`, false, "x=1;y=2; x=2;y=1; x=2;y=2;"},
		{"XCHG atomicity", "tso", `X86 XCHG
{ x=0; }
 P0            | P1            ;
 MOV EAX,$1    | MOV EAX,$2    ;
 XCHG [x],EAX  | XCHG [x],EAX  ;
exists (0:EAX=0 /\ 1:EAX=0)`, false, "0:EAX=0;1:EAX=1; 0:EAX=2;1:EAX=0;"},
		{"locked add counts", "tso", `X86 ADD
{ x=0; }
 P0              | P1              ;
 LOCK ADD [x],$1 | LOCK ADD [x],$1 ;
forall (x=2)`, true, "x=2;"},
		{"plain increments race", "sc", `X86 INC
{ x=0; }
 P0           | P1           ;
 MOV EAX,[x]  | MOV EAX,[x]  ;
 INC EAX      | INC EAX      ;
 MOV [x],EAX  | MOV [x],EAX  ;
exists (x=1)`, true, "x=1; x=2;"},
		{"branch on a read", "sc", `X86 BR
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV EAX,[x] ;
             | CMP EAX,$1  ;
             | JNE L0      ;
             | MOV [y],$1  ;
             | L0:         ;
exists (1:EAX=1 /\ y=0)`, false, "1:EAX=0;y=0; 1:EAX=1;y=1;"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := check(t, tc.src, tc.model)
			if r.Ok() != tc.ok {
				t.Errorf("verdict %v, want %v", r.Ok(), tc.ok)
			}
			if got := states(r); got != tc.states {
				t.Errorf("states\n got %s\nwant %s", got, tc.states)
			}
		})
	}
}

func TestTimeoutIsNotAVerdict(t *testing.T) {
	lt, err := litmus.Parse("t.litmus", []byte(`X86 T
{ }
 P0         | P1         | P2         | P3         ;
 MOV [x],$1 | MOV [x],$2 | MOV [x],$3 | MOV [x],$4 ;
 MOV [x],$5 | MOV [x],$6 | MOV [x],$7 | MOV [x],$8 ;
exists (x=1)`))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := cat.LoadBuiltin("tso")
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	time.Sleep(2 * time.Millisecond)
	r := Run(ctx, lt, m, "tso", Options{})
	if r.Status != result.Timeout {
		t.Fatalf("status %s, want timeout", r.Status)
	}
}
