package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args     []string
		operands []string
		model    string
		quiet    bool
	}{
		{[]string{"a.litmus"}, []string{"a.litmus"}, "", false},
		{[]string{"-model", "sc", "a", "b"}, []string{"a", "b"}, "sc", false},
		{[]string{"a", "-model", "sc", "b", "-q"}, []string{"a", "b"}, "sc", true},
		{[]string{"a", "--model=tso", "b"}, []string{"a", "b"}, "tso", false},
		{[]string{"-q", "--", "-model", "x"}, []string{"-model", "x"}, "", true},
		{[]string{"a", "--", "-q"}, []string{"a", "-q"}, "", false},
		{nil, nil, "", false},
	}
	for _, tc := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		model := fs.String("model", "", "")
		quiet := fs.Bool("q", false, "")
		got, err := parseInterleaved(fs, tc.args)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !slices.Equal(got, tc.operands) || *model != tc.model || *quiet != tc.quiet {
			t.Errorf("%q: operands %q model %q q %v, want %q %q %v", tc.args, got, *model, *quiet, tc.operands, tc.model, tc.quiet)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parseInterleaved(fs, []string{"a", "-nosuch"}); err == nil {
		t.Error("an unknown flag after an operand is not an error")
	}
}

// TestHelpAndUsageErrors: -h prints a command's full help and nothing
// else (it printed the one-line usage and its hint first); a wrong flag
// prints the error, the one-line usage and the hint, not every flag.
func TestHelpAndUsageErrors(t *testing.T) {
	for name := range synopses {
		t.Run(name, func(t *testing.T) {
			hint := "Run 'musket " + name + " -h' for the flags."
			var out, errOut strings.Builder
			if code := dispatch(append(strings.Fields(name), "-h"), &out, &errOut); code != 0 {
				t.Fatalf("-h: exit %d, want 0", code)
			}
			help := out.String() + errOut.String()
			if strings.Contains(help, hint) || !strings.HasPrefix(help, synopses[name]+"\n") {
				t.Errorf("-h prints the short usage or does not start with the synopsis:\n%s", help)
			}
			out.Reset()
			errOut.Reset()
			if code := dispatch(append(strings.Fields(name), "-no-such-flag"), &out, &errOut); code != 2 {
				t.Fatalf("a wrong flag: exit %d, want 2", code)
			}
			want := "flag provided but not defined: -no-such-flag\n" + synopses[name] + "\n" + hint + "\n"
			if name == "models" { // no flags
				want = "musket models: takes no flags or operands, not \"-no-such-flag\"\n" + synopses[name] + "\n"
			}
			if got := out.String() + errOut.String(); got != want {
				t.Errorf("a wrong flag prints\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestSplitGluedFlags checks that clang's glued -DNAME and -IDIR are read
// as -D NAME and -I DIR, and that nothing else is touched.
func TestSplitGluedFlags(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"-DACQ2RX a.c", "-D ACQ2RX a.c"},
		{"-DN=3 -I/x/y a.c", "-D N=3 -I /x/y a.c"},
		{"--DN=3 a.c", "-D N=3 a.c"},
		{"-D N -I d a.c", "-D N -I d a.c"},
		{"-D -DX a.c", "-D -DX a.c"}, // -DX is -D's value
		{"-D=X a.c", "-D=X a.c"},
		{"-model rc11 a.c -- -DX", "-model rc11 a.c -- -DX"},
		{"-bound 3 Dir.c", "-bound 3 Dir.c"},
	} {
		got := strings.Join(splitGluedFlags(strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("splitGluedFlags(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestStdinOperand: "-" is the standard input for the commands that read
// files, once (before: "stat -: no such file or directory").
func TestStdinOperand(t *testing.T) {
	for _, c := range []struct {
		command  string
		operands []string
		want     string // the operands joined by blanks, or the error
	}{
		{"litmus", []string{"-"}, "/dev/stdin"},
		{"check", []string{"a.c", "-"}, "a.c /dev/stdin"},
		{"diff", []string{"-", "b.json"}, "/dev/stdin b.json"},
		{"diff", []string{"-", "-"}, "given twice"},
		{"merge", []string{"-", "x", "-"}, "given twice"},
		{"gen", []string{"-"}, "-"}, // an edge, not a file
		{"param", []string{"x.cub"}, "x.cub"},
	} {
		got, err := stdinOperand(c.command, append([]string(nil), c.operands...))
		text := strings.Join(got, " ")
		if err != nil {
			text = err.Error()
		}
		if !strings.Contains(text, c.want) {
			t.Errorf("%s %v: %q, want %q", c.command, c.operands, text, c.want)
		}
	}
}

// TestFolderAndDefineErrors checks that a folder given to a command that
// reads files only, and a -D whose name is not a C identifier, are usage
// errors (exit 2) that name the command, before anything is read or
// clang runs.
func TestFolderAndDefineErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", dir}, "musket check: " + dir + " is a folder"},
		{[]string{"param", dir}, "musket param: " + dir + " is a folder"},
		{[]string{"prove", "-model", "tso", dir}, "musket prove: " + dir + " is a folder"},
		{[]string{"compare", "-source", "sc", "-target", "tso", dir}, "musket compare: " + dir + " is a folder"},
		{[]string{"check", "-D", "=", "x.c"}, `invalid value "=" for flag -D`},
		{[]string{"check", "-D", "", "x.c"}, `invalid value "" for flag -D`},
		{[]string{"check", "-D", "1X=2", "x.c"}, `invalid value "1X=2" for flag -D`},
		{[]string{"check", "-D=A-B", "x.c"}, `invalid value "A-B" for flag -D`},
	} {
		var out, errOut strings.Builder
		code := dispatch(c.args, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
	for _, ok := range []string{"X", "_x1", "FOO=", "FOO=1=2", "A=(b)"} {
		var d defineFlag
		if err := d.Set(ok); err != nil {
			t.Errorf("-D %q refused: %v", ok, err)
		}
	}
}

// TestTooLargeTestIsALimit checks that litmus, check and prove exit with
// a limit (3), not bad input, on a test whose thread is longer than the
// parser takes (litmus.MaxThreadCode).
func TestTooLargeTestIsALimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.litmus")
	text := "X86 long\n{ x=0; }\n P0 ;\n" + strings.Repeat(" MOV [x],$1 ;\n", litmus.MaxThreadCode+1) + "exists (x=1)\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"litmus", path},
		{"check", path},
		{"prove", "-model", "tso", path},
	} {
		var out, errOut strings.Builder
		if code := dispatch(args, &out, &errOut); code != exitLimit || !strings.Contains(errOut.String(), "more than 65536 instructions") {
			t.Errorf("%v: exit %d, stderr %q; want %d and the limit", args[0], code, errOut.String(), exitLimit)
		}
	}
}

// TestTimeLimitForms: every command's time limits take the same forms,
// "10s" or a bare number of seconds as herd7 takes it; bench and serve
// declared theirs with flag.Duration, which refused "-timeout 5".
func TestTimeLimitForms(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		// The limit is read; the file given is what is refused.
		{[]string{"bench", "porthos", "-timeout", "5", "x.pts"}, exitBadInput, "a suite takes no files"},
		{[]string{"bench", "mutex", "-timeout", "0.5", "x.pts"}, exitBadInput, "a suite takes no files"},
		{[]string{"bench", "cubicle", "-timeout", "5", "-examples-timeout", "2", "x.cub"}, exitBadInput, "a suite takes no files"},
		{[]string{"bench", "cubicle", "-examples-timeout", "1m", "x.cub"}, exitBadInput, "a suite takes no files"},
		{[]string{"bench", "mutex", "-timeout", "-5", "x"}, exitBadInput, "negative time limit"},
		{[]string{"bench", "c", "-timeout", "soon"}, exitBadInput, `invalid value "soon" for flag -timeout: not a duration`},
		{[]string{"serve", "-timeout", "0"}, exitBadInput, "-timeout"},
		{[]string{"serve", "-timeout", "ten"}, exitBadInput, `invalid value "ten" for flag -timeout: not a duration`},
	}
	for _, tc := range tests {
		var out, errOut strings.Builder
		code := dispatch(tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errOut.String(), tc.code, tc.want)
		}
	}
}

// TestMemoryMinimum: a -memory below the process's own size was reached
// or not depending on whether the watcher sampled before the run ended
// (robust6: SB under -memory 1 gave exit 0 once and 3 twice). Such a
// limit is now refused by every command before any work (exit 2); from
// the minimum on, the flag is taken, and 0 is no limit.
func TestMemoryMinimum(t *testing.T) {
	t.Cleanup(applyResourceDefaults) // -memory sets the process's limit
	sb := sbTest
	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"litmus", "-memory", "1", sb}, exitBadInput, `invalid value "1" for flag -memory: 1B is below Musket's smallest memory limit, 16MiB`},
		{[]string{"litmus", "-memory", "1K", sb}, exitBadInput, "1KiB is below"},
		{[]string{"check", "-memory", "15.9M", sb}, exitBadInput, "below Musket's smallest memory limit"},
		{[]string{"param", "-memory", "4M", "testdata/param_intlin.cub"}, exitBadInput, "4MiB is below"},
		{[]string{"fix", "-memory", "1M", sb}, exitBadInput, "1MiB is below"},
		{[]string{"gen", "-memory", "2K", "-arch", "X86", "-relax", "Rfe PodRR Fre PodWR"}, exitBadInput, "2KiB is below"},
		{[]string{"compare", "-memory", "100", "-source", "sc", "-target", "tso", sb}, exitBadInput, "100B is below"},
		{[]string{"serve", "-memory", "8M"}, exitBadInput, "8MiB is below"},
		{[]string{"bench", "mutex", "-memory", "1K"}, exitBadInput, "1KiB is below"},
		{[]string{"litmus", "-memory", "16M", sb}, exitOK, ""},
		{[]string{"litmus", "-memory", "0", sb}, exitOK, ""},
	}
	for _, tc := range tests {
		var out, errOut strings.Builder
		code := dispatch(tc.args, &out, &errOut)
		applyResourceDefaults()
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errOut.String(), tc.code, tc.want)
		}
	}
}
