package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runGen([]string{"-arch", "PPC", "LwSyncdWW", "Rfe", "DpAddrdR", "Fre"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "PPC MP+lwsync+addr\n") || !strings.Contains(out.String(), "lwzx ") {
		t.Errorf("unexpected test:\n%s", out.String())
	}
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-arch", "X86", "PodWR", "PodWR"}, exitBadInput, "PodWR ends on a read but PodWR starts from a write"},
		{[]string{"-arch", "X86", "DpAddrdR", "Fre"}, exitBadInput, "X86 has no dependencies"},
		{[]string{"-arch", "Z80", "PodWR", "Fre"}, exitBadInput, "unknown architecture"},
		{[]string{"-arch", "X86"}, exitBadInput, "give a cycle"},
		{[]string{"-arch", "X86", "-relax", "PodWR,Fre"}, exitBadInput, "give the folder with -o"},
		{[]string{"-arch", "PPC", "PodWR", "DpAddrdR", "Rmw", "Rfe", "PodRR", "Fre"}, exitLimit, "unsupported: DpAddrdR then Rmw"},
		{[]string{"-arch", "X86", "-cond", "always", "PodWR", "Fre", "PodWR", "Fre"}, exitBadInput, `-cond "always": want cycle, unicond, observe`},
		{[]string{"-arch", "AArch64", "PodWWw0q9", "Rfe", "PodRR", "Fre"}, exitBadInput, "PodWWw0q9"},
		{[]string{"-arch", "AArch64", "PodWRq0w0", "Frew4q0", "PodWR", "Fre"}, exitBadInput, "PodWRq0w0 then Frew4q0: the access between them is both w0 and w4"},
		// diy7's -obs and -obstype.
		{[]string{"-arch", "PPC", "-obs", "always", "PodWW", "Wse", "PodWW", "Wse"}, exitBadInput, `-obs "always": unknown mode; want accept, avoid, force, local`},
		{[]string{"-arch", "PPC", "-obs", "force", "-obstype", "polled", "PodWW", "Wse", "PodWW", "Wse"}, exitBadInput, `-obstype "polled": unknown observer type`},
		{[]string{"-arch", "PPC", "-obs", "force", "-obstype", "loop", "PodWW", "Wse", "PodWW", "Wse"}, exitBadInput, "-obstype loop: polling observers are not written"},
		{[]string{"-arch", "PPC", "-obs", "avoid", "Wse", "Wse", "PodWW", "Wse", "PodWW"}, exitLimit, "unsupported: -obs avoid: the coherence order of"},
		// The Linux kernel's kinds.
		{[]string{"-arch", "LKMM", "PodWWAcquireOnce", "Rfe", "PodRR", "Fre"}, exitBadInput, "Acquire (smp_load_acquire) is for reads"},
		{[]string{"-arch", "LKMM", "-cond", "unicond", "PodWR", "Fre", "PodWR", "Fre"}, exitBadInput, "the outcomes of a test of the Linux kernel's primitives are its model's"},
		{[]string{"-arch", "C", "-obs", "force", "PodWW", "Wse", "PodWW", "Wse"}, exitLimit, "observer thread of the plain (non-atomic) location x would race"},
	} {
		out.Reset()
		errb.Reset()
		if code := runGen(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.err) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errb.String(), c.code, c.err)
		}
	}
	// -cond: diy's styles of final condition.
	for _, c := range []struct{ style, want string }{
		{"observe", "\nlocations [0:EAX;1:EAX;]\n"},
		{"observe LKMM", "\n}\n\nlocations [0:r0;1:r0;]\n"},
		{"observe C", "\n}\n\nlocations [0:r0;1:r0;]\n"},
		// SB of seq_cst accesses under C11: no 0:r0=0 /\ 1:r0=0.
		{"unicond C", "\nforall\n((0:r0=0 /\\ 1:r0=1) \\/ (0:r0=1 /\\ 1:r0=0) \\/ (0:r0=1 /\\ 1:r0=1))\n"},
		{"unicond", "\nforall\n((0:EAX=0 /\\ 1:EAX=0) \\/ (0:EAX=0 /\\ 1:EAX=1) \\/ (0:EAX=1 /\\ 1:EAX=0) \\/ (0:EAX=1 /\\ 1:EAX=1))\n"},
	} {
		out.Reset()
		style, arch, _ := strings.Cut(c.style, " ")
		cycle := []string{"PodWR", "Fre", "PodWR", "Fre"}
		switch arch {
		case "":
			arch = "X86"
		case "C":
			cycle = []string{"PodWRScSc", "FreScSc", "PodWRScSc", "FreScSc"}
		}
		if code := runGen(append([]string{"-arch", arch, "-cond", style}, cycle...), &out, &errb); code != exitOK || !strings.HasSuffix(out.String(), c.want) {
			t.Errorf("-cond %s: exit %d, test\n%s\nwant it to end with %q", c.style, code, out.String(), c.want)
		}
	}
	// -obs: observer threads (force), local loads (local).
	for _, c := range []struct{ obs, want string }{
		{"force", "\nexists\n(2:r2=1 /\\ 2:r3=2 /\\ 3:r2=1 /\\ 3:r3=2)\n"},
		{"local", "\nexists\n(0:r5=2 /\\ 1:r5=2)\n"},
	} {
		out.Reset()
		if code := runGen([]string{"-arch", "PPC", "-obs", c.obs, "PodWW", "Wse", "PodWW", "Wse"}, &out, &errb); code != exitOK || !strings.HasSuffix(out.String(), c.want) {
			t.Errorf("-obs %s: exit %d, test\n%s\nwant it to end with %q", c.obs, code, out.String(), c.want)
		}
	}
	dir := t.TempDir()
	out.Reset()
	if code := runGen([]string{"-arch", "AArch64", "-relax", "DMB.SYd**,DpAddrdR", "-safe", "Rfe,Fre", "-size", "4", "-o", dir}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	index, err := os.ReadFile(filepath.Join(dir, "@all"))
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(string(index))
	for _, want := range []string{"MP+dmb.sy+addr.litmus", "SB+dmb.sys.litmus", "MP+dmb.sys.litmus"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("%s not in the index %v", want, names)
		}
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("index names a missing file: %v", err)
		}
	}
	// The index runs: every test of the campaign parses and gets a verdict.
	out.Reset()
	errb.Reset()
	if code := runLitmus([]string{"-q", "-engine", "enum", filepath.Join(dir, "@all")}, &out, &errb); code != exitOK {
		t.Errorf("running the campaign: exit %d: %s", code, errb.String())
	}
}

// TestGenStops: an enumeration whose cycles never end (-size 1000 grows
// exponentially) stops at its time limit and writes what it found, exit 3;
// before, it ran forever and ignored SIGINT and SIGTERM.
func TestGenStops(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-relax", "Rfe,Fre,PodWR,PodWW,PodRR,PodRW", "-size", "1000", "-timeout", "1ms"}, exitLimit, "timed out (limit 1ms)"},
		{[]string{"-relax", "Rfe,Fre", "-size", "4", "-timeout", "garbage"}, exitBadInput, "not a duration"},
	} {
		var out, errb bytes.Buffer
		args := append(c.args, "-o", t.TempDir())
		if code := runGen(args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.err) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errb.String(), c.code, c.err)
		}
	}
}
