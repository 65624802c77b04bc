package litmus_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestNarrowLoadExtension checks that a load narrower than a register
// sets the register as herd7 does, whatever the other accesses of the
// test: zero-extended for lbu lhu lwu (RISC-V) and LDRB LDRH LDR W
// (AArch64), sign-extended for lb lh lw and LDRSB LDRSH LDRSW, on values
// whose top bit is set, written by a store of the same width (with every
// access 4 bytes wide the test keeps whole-location accesses, with byte
// or half-word ones it is lowered into chunks) or given as the initial
// value. Power's lwz keeps the value of the location: herd7's Power
// semantics neither mask nor extend a word load of a test that is not
// mixed-size. A word store writes the low word of its register. Both
// engines must find the one final state.
func TestNarrowLoadExtension(t *testing.T) {
	type kind struct {
		arch, model   string
		load, store   string // instruction templates: %s is the register
		size          int
		signed        bool
		reg, val, ptr string // the register loaded, the one stored, the address
	}
	kinds := []kind{
		{"RISCV", "riscv", "lw %s,0(x5)", "sw x7,0(x5)", 4, true, "x6", "x7", "x5"},
		{"RISCV", "riscv", "lwu %s,0(x5)", "sw x7,0(x5)", 4, false, "x6", "x7", "x5"},
		{"RISCV", "riscv", "lh %s,0(x5)", "sh x7,0(x5)", 2, true, "x6", "x7", "x5"},
		{"RISCV", "riscv", "lhu %s,0(x5)", "sh x7,0(x5)", 2, false, "x6", "x7", "x5"},
		{"RISCV", "riscv", "lb %s,0(x5)", "sb x7,0(x5)", 1, true, "x6", "x7", "x5"},
		{"RISCV", "riscv", "lbu %s,0(x5)", "sb x7,0(x5)", 1, false, "x6", "x7", "x5"},
		{"AArch64", "aarch64", "LDR W%s,[X1]", "STR W7,[X1]", 4, false, "0", "7", "1"},
		{"AArch64", "aarch64", "LDRSW X%s,[X1]", "STR W7,[X1]", 4, true, "0", "7", "1"},
		{"AArch64", "aarch64", "LDRH W%s,[X1]", "STRH W7,[X1]", 2, false, "0", "7", "1"},
		{"AArch64", "aarch64", "LDRSH X%s,[X1]", "STRH W7,[X1]", 2, true, "0", "7", "1"},
		{"AArch64", "aarch64", "LDRB W%s,[X1]", "STRB W7,[X1]", 1, false, "0", "7", "1"},
		{"AArch64", "aarch64", "LDRSB X%s,[X1]", "STRB W7,[X1]", 1, true, "0", "7", "1"},
	}
	ext := func(v int64, size int, signed bool) int64 {
		n := uint(8 * size)
		u := v & (1<<n - 1)
		if signed && u>>(n-1) == 1 {
			u -= 1 << n
		}
		return u
	}
	type tcase struct {
		name, src, arch, model string
		want                   int64
	}
	var cases []tcase
	for _, k := range kinds {
		top := int64(1) << (8*k.size - 1)
		for _, v := range []int64{-56, top, 7} {
			for _, fromInit := range []bool{false, true} {
				if fromInit && k.size < 4 {
					continue // a narrow store makes the test mixed-size; an int location is a word
				}
				regName := k.reg
				code := []string{fmt.Sprintf(k.load, k.reg)}
				init := ""
				if k.arch == "AArch64" {
					regName = "X" + k.reg
					init = fmt.Sprintf("0:X%s=x; 0:X%s=%d;", k.ptr, k.val, v)
				} else {
					init = fmt.Sprintf("0:%s=x; 0:%s=%d;", k.ptr, k.val, v)
				}
				if fromInit {
					init += fmt.Sprintf(" x=%d;", v)
				} else {
					code = append([]string{k.store}, code...)
				}
				want := ext(v, k.size, k.signed)
				name := fmt.Sprintf("%s/%s/%d/init=%v", k.arch, strings.Fields(k.load)[0], v, fromInit)
				src := fmt.Sprintf("%s T\n{ %s }\n P0 ;\n %s ;\nforall (0:%s=%d)\n", k.arch, init, strings.Join(code, " ;\n "), regName, want)
				cases = append(cases, tcase{name, src, k.arch, k.model, want})
			}
		}
	}
	// A word store writes the low four bytes of the register (herd7
	// masks the value stored), read back whole by a doubleword load; the
	// location's final value is that word too.
	for _, v := range []int64{-56, 1 << 31} {
		w := v & (1<<32 - 1)
		cases = append(cases,
			tcase{fmt.Sprintf("RISCV/sw+ld/%d", v),
				fmt.Sprintf("RISCV T\n{ 0:x5=x; 0:x7=%d; }\n P0 ;\n sw x7,0(x5) ;\n ld x6,0(x5) ;\nforall (0:x6=%d /\\ x=%d)\n", v, w, w), "RISCV", "riscv", w},
			tcase{fmt.Sprintf("AArch64/STR W+LDR X/%d", v),
				fmt.Sprintf("AArch64 T\n{ 0:X1=x; 0:X7=%d; }\n P0 ;\n STR W7,[X1] ;\n LDR X0,[X1] ;\nforall (0:X0=%d /\\ x=%d)\n", v, w, w), "AArch64", "aarch64", w})
	}
	// Power: lwz of a test that is not mixed-size reads the location's
	// value as it is (herd7).
	for _, v := range []int64{-56, 1 << 31} {
		cases = append(cases, tcase{fmt.Sprintf("PPC/lwz/%d", v),
			fmt.Sprintf("PPC T\n{ 0:r5=x; 0:r7=%d; }\n P0 ;\n stw r7,0(r5) ;\n lwz r6,0(r5) ;\nforall (0:r6=%d)\n", v, v), "PPC", "power", v})
	}
	for _, tc := range cases {
		m, mname, err := driver.Load(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		fe, _ := litmus.Lookup(tc.arch)
		lt, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v\n%s", tc.name, err, tc.src)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		a := enum.Run(ctx, lt, m, mname, enum.Options{TagNames: fe.Tags()})
		if a.Status != result.Done || !a.Ok() || len(a.States) != 1 {
			t.Errorf("%s: explicit %s %v, ok %v with %d states (%v); want register = %d\n%s", tc.name, a.Status, a.Err, a.Ok(), len(a.States), a.States, tc.want, tc.src)
		}
		b := bmc.Run(ctx, lt, m, mname, bmc.Options{TagNames: fe.Tags()})
		if b.Status != result.Done || !b.Ok() || len(b.States) != 1 {
			t.Errorf("%s: smt %s %v, ok %v with %d states (%v); want register = %d\n%s", tc.name, b.Status, b.Err, b.Ok(), len(b.States), b.States, tc.want, tc.src)
		}
		cancel()
	}
}
