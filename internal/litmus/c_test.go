package litmus

import (
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// cCode prints the code of every thread, one instruction a line, threads
// separated by " | ".
func cCode(t *spec.Test) string {
	var parts []string
	for _, th := range t.Threads {
		var ins []string
		for _, in := range th.Code {
			ins = append(ins, prog.InstrString(in))
		}
		parts = append(parts, strings.Join(ins, "; "))
	}
	return strings.Join(parts, " | ")
}

func TestCThreads(t *testing.T) {
	tests := []struct {
		name, src, code string
	}{
		{"c11 atomics", `C t
{ [x] = 0; [y] = 0; }
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_release);
  int r0 = atomic_load_explicit(y, memory_order_acquire);
}
P1 (atomic_int* x) { atomic_thread_fence(memory_order_seq_cst); int r1 = atomic_load(x); }
exists (0:r0=0 /\ 1:r1=0)`,
			"store.A.REL [x] 1; %t1 = load.A.ACQ [y]; r0 = %t1 | fence.SC; %t1 = load.A.SC [x]; r1 = %t1"},
		{"plain accesses and pointers", `C t
{ int *p = &x; }
P0(int *x, int **p) { int *r = *p; *r = 2; int r1 = *x + 1; }
exists (0:r1=3)`,
			"%t1 = load.NA [p]; r = %t1; store.NA [r] 2; %t2 = load.NA [x]; r1 = (%t2 + 1)"},
		{"kernel macros", `C t
{}
P0(intptr_t *x, intptr_t *y) {
	WRITE_ONCE(*x, 1);
	smp_mb();
	intptr_t r1 = smp_load_acquire(y);
}
exists (0:r1=0)`,
			"store.ONCE [x] 1; fence.MB; %t1 = load.ACQUIRE [y]; r1 = %t1"},
		{"if else and casts", `C t
{}
P0(int *x, int *y) {
	int r0 = READ_ONCE(*x);
	if (r0 == 1) WRITE_ONCE(*y, 1); else { WRITE_ONCE(*y, (int)2); }
}
exists (0:r0=1)`,
			"%t1 = load.ONCE [x]; r0 = %t1; if !(r0 == 1) goto %L1; store.ONCE [y] 1; goto %L2; %L1:; store.ONCE [y] 2; %L2:"},
		{"while loop", `C t
{}
P0(int *x) { int r = 0; while (r == 0) { r = READ_ONCE(*x); } }
exists (0:r=1)`,
			"r = 0; %L1:; if !(r == 0) goto %L2; %t1 = load.ONCE [x]; r = %t1; goto %L1; %L2:"},
		{"exchange and cmpxchg", `C t
{}
P0(int *x) { int r0 = xchg(x, 1); int r1 = cmpxchg_acquire(x, 1, 2); }
exists (0:r0=0)`,
			"%t1 = rmw.MB.RMW.X/.MB.RMW.X [x] 1; r0 = %t1; %t2 = rmw.ACQUIRE.RMW.X/.ACQUIRE.RMW.X [x] 2 if (old == 1); r1 = %t2"},
		{"atomic_t operations", `C t
{ atomic_t x = ATOMIC_INIT(1); }
P0(atomic_t *x) { atomic_inc(x); int r = atomic_read(x); }
exists (0:r=2)`,
			"%t1 = rmw.NORETURN.RMW.X/.NORETURN.RMW.X [x] (old + 1); %t2 = load.ONCE [x]; r = %t2"},
		{"compare exchange", `C t
{ [x] = 0; [one] = 1; }
P0(atomic_int *x, atomic_int *one) {
  int r = atomic_compare_exchange_strong_explicit(x, one, 2, memory_order_relaxed, memory_order_relaxed);
}
exists (0:r=1)`,
			"%t1 = load.NA [one]; %t2 = rmw.A.RLX.RMW.X/.A.RLX.RMW.X [x] 2 if (old == %t1); if (%t2 == %t1) goto %L1; store.NA [one] %t2; %L1:; r = (%t2 == %t1)"},
		{"spin locks", `C t
{}
P0(spinlock_t *s, int *x) { spin_lock(s); WRITE_ONCE(*x, 1); spin_unlock(s); }
exists (x=1)`,
			"lock [s]; store.ONCE [x] 1; unlock [s]"},
		{"trylock and is_locked", `C t
{}
P0(spinlock_t *s) { int r0 = spin_trylock(s); int r1 = spin_is_locked(s); }
exists (0:r0=1)`,
			"%t1 = trylock [s]; r0 = %t1; %t2 = islocked [s]; r1 = %t2"},
		{"GCC's __int128 as a type (herd7's tests/instructions/C C08)", `C t
{ __int128 x; _Atomic __int128 z = 0; }
P0(volatile __int128 *x, unsigned __int128* z) { __int128 r0 = *x; *z = 1; }
exists (0:r0=0)`,
			"%t1 = load.NA [x]; r0 = %t1; store.NA [z] 1"},
		{"synchronize_srcu", `C t
{}
P0(struct srcu_struct *s) { synchronize_srcu(s); }
exists (0:r0=1)`,
			"event[Sync-srcu] [s]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lt, err := Parse("t.litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := cCode(lt); got != tc.code {
				t.Errorf("code\n got %s\nwant %s", got, tc.code)
			}
		})
	}
}

func TestCInitAndCondition(t *testing.T) {
	src := `C t
{ atomic_t x = ATOMIC_INIT(2); int *p = &y; }
P0(atomic_t *x, int **p) { int r0 = atomic_read(x); }
exists (0:r0=2 /\ p=y)`
	lt, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Init) != 2 || lt.Init[0].Val != prog.IntValue(2) || lt.Init[1].Val != prog.AddrValue("y") {
		t.Errorf("init = %+v", lt.Init)
	}
	if got, want := lt.ConditionLine(), `exists (0:r0=2 /\ [p]=y)`; got != want {
		t.Errorf("condition %q, want %q", got, want)
	}
}

func TestCErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown function", "C t\n{}\nP0(int *x) {\n  foo(x);\n}\nexists (x=1)", `t.litmus:4:3: unknown C function "foo"`},
		{"undeclared", "C t\n{}\nP0(int *x) {\n  int r = *z;\n}\nexists (x=1)", `t.litmus:4:12: undeclared identifier "z"`},
		{"wrong thread", "C t\n{}\nP1(int *x) { }\nexists (x=1)", `t.litmus:3:1: expected thread function P0, found "P1"`},
		{"missing brace", "C t\n{}\nP0(int *x) {\n  WRITE_ONCE(*x, 1);\n", "t.litmus:5:1: missing '}'"},
		{"lock of a non-pointer", "C t\n{}\nP0(spinlock_t *s) {\n  spin_lock(s, s);\n}\nexists (0:r=1)", `macro spin_lock takes 1 arguments, not 2`},
		{"local arrays", "C t\n{}\nP0(int *x) {\n  int a[2];\n}\nexists (0:r=1)", `t.litmus:4:7: unsupported C feature: local arrays`},
		{"memory regions", "C t\n{ int x = 0 }\nP0(int *x) {\n  *x = 1;\n}\nregions: x:NAME\nforall (x=1)", `t.litmus:6:1: unsupported test: its regions: section`},
		{"bad memory order", "C t\n{}\nP0(atomic_int *x) {\n  int r = atomic_load_explicit(x, 3);\n}\nexists (0:r=1)", `expected a memory order`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.litmus", []byte(tc.src))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}

func TestCMacros(t *testing.T) {
	def := `// A .def file
MY_LOAD(X) __load{acquire}(X)
MY_STORE(X,V) { __store{release}(X,V); }
MY_FENCE() { __fence{rcu-lock}; }
MY_TEST(V,X) __atomic_op_return{MB}(X,-,V) == 0
`
	m, err := ParseMacros("my.def", []byte(def))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(m.Names(), " "), "MY_FENCE MY_LOAD MY_STORE MY_TEST"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	if got, want := strings.Join(m.Tags(), " "), "Acquire MB Rcu-lock Release"; got != want {
		t.Errorf("tags %q, want %q", got, want)
	}
	src := `C t
{}
P0(int *x) { MY_STORE(*x, 1); MY_FENCE(); int r = MY_LOAD(*x); int s = MY_TEST(1, x); }
exists (0:r=1)`
	lt, err := ParseWith("t.litmus", []byte(src), NewCFrontend(m))
	if err != nil {
		t.Fatal(err)
	}
	want := "store.Release [x] 1; fence.Rcu-lock; %t1 = load.Acquire [x]; r = %t1; %t2 = rmw.MB.RMW.X/.MB.RMW.X [x] (old - 1); s = ((%t2 - 1) == 0)"
	if got := cCode(lt); got != want {
		t.Errorf("code\n got %s\nwant %s", got, want)
	}
	// Without the macros, MY_LOAD is unknown.
	if _, err := Parse("t.litmus", []byte(src)); err == nil || !strings.Contains(err.Error(), `unknown C function "MY_STORE"`) {
		t.Errorf("error %v", err)
	}
}

func TestCMacroErrors(t *testing.T) {
	tests := []struct{ name, def, want string }{
		{"no body", "F(X)\nG(X) X", "my.def:2:1: missing body of macro F"},
		{"bad params", "F(X,) X", "my.def:1:5: expected a parameter name"},
		{"junk", "F(X) X )", `my.def:1:8: unexpected ")" after the body of macro F`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseMacros("my.def", []byte(tc.def))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestCKernelDef(t *testing.T) {
	m, err := ReadMacros("../../../shared/corpus/cat/linux/linux-kernel.def")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the corpus's linux-kernel.def: %v", err)
		}
		t.Skipf("the corpus's linux-kernel.def: %v", err)
	}
	for _, name := range []string{"READ_ONCE", "smp_store_release", "atomic_add_unless", "srcu_read_lock", "cmpxchg_acquire"} {
		if _, ok := m.defs[name]; !ok {
			t.Errorf("macro %s missing", name)
		}
	}
}

// TestBuiltinMacroTags: the C front-end's tags, made without parsing the
// built-in macros, are those the parse gives (builtinMacroTags is that
// list written out), with and without a user's macros.
func TestBuiltinMacroTags(t *testing.T) {
	if got, want := strings.Join(builtinMacroTags, " "), strings.Join(builtinMacros().Tags(), " "); got != want {
		t.Fatalf("builtinMacroTags %q, the built-in macros' tags %q", got, want)
	}
	user, err := ParseMacros("my.def", []byte("MY_LOAD(X) __load{acquire}(X)\nMY_FENCE() { __fence{my-fence}; }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		user *Macros
	}{{"built-in macros", nil}, {"with a .def file", user}} {
		t.Run(tc.name, func(t *testing.T) {
			set := map[string]bool{TagAtomic: true, TagNonAtomic: true, TagRMW: true, TagX: true, "NAL": true}
			for _, o := range cMemOrders {
				set[o] = true
			}
			for _, list := range [][]string{cLockTags, cKernelTags, builtinMacros().over(tc.user).Tags()} {
				for _, tag := range list {
					set[tag] = true
				}
			}
			var want []string
			for tag := range set {
				want = append(want, tag)
			}
			sort.Strings(want)
			if got := NewCFrontend(tc.user).Tags(); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("tags\n got %v\nwant %v", got, want)
			}
		})
	}
}
