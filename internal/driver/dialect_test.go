package driver

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

// TestCheckDialect: a C test written with the Linux kernel's primitives is
// refused under the default C11 model, at the statement that uses one; a
// model the user names is taken, and C11 tests pass.
func TestCheckDialect(t *testing.T) {
	const c11 = `C c11
{}
P0(atomic_int *x) { atomic_store_explicit(x, 1, memory_order_release); }
P1(atomic_int *x) { int r0 = atomic_load_explicit(x, memory_order_acquire); }
exists (1:r0=1)
`
	kernel := func(body string) string {
		return "C k\n{}\nP0(int *x, spinlock_t *s)\n{\n\tint r0 = 0;\n\t" + body + "\n}\nexists (0:r0=0)\n"
	}
	cases := []struct {
		name, src string
		ms        Models
		want      string // "" for no error, else a part of it
	}{
		{"c11 atomics", c11, Models{}, ""},
		{"READ_ONCE", kernel("r0 = READ_ONCE(*x);"), Models{}, "t.litmus:6:2: "},
		{"smp_store_release", kernel("smp_store_release(x, 1);"), Models{}, "event tag RELEASE"},
		{"spin_lock", kernel("spin_lock(s);"), Models{}, "spin_lock"},
		{"smp_mb", kernel("smp_mb();"), Models{}, "event tag MB"},
		{"rcu", kernel("rcu_read_lock();"), Models{}, "Rcu-lock"},
		{"model given", kernel("r0 = READ_ONCE(*x);"), Models{Model: "c11"}, ""},
		{"plain accesses", kernel("r0 = *x;"), Models{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			test, err := litmus.Parse("t.litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			err = tc.ms.CheckDialect(test)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("no error, want one with %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q, want %q in it", err, tc.want)
			case err != nil && !strings.HasPrefix(err.Error(), "t.litmus:"):
				t.Fatalf("error %q does not start with the file's position", err)
			}
		})
	}
}
