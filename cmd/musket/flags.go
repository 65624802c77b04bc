package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/source"
)

// listFlag is a repeatable string flag (e.g. -I DIR -I DIR2).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// defineFlag is check's -D NAME[=VALUE]: a listFlag that refuses, as a
// flag error, a value whose NAME is not a C identifier ("=", "", "1=2"),
// which clang would otherwise turn into "clang rejects the program".
type defineFlag struct{ listFlag }

func (d *defineFlag) Set(s string) error {
	name, _, _ := strings.Cut(s, "=")
	if !isCIdentifier(name) {
		return fmt.Errorf("%q: want NAME or NAME=VALUE with NAME a C identifier", s)
	}
	return d.listFlag.Set(s)
}

// isCIdentifier tells whether s is a C identifier: a letter or _, then
// letters, digits or _.
func isCIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || (i > 0 && '0' <= r && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// isTerminal tells whether w is a terminal (progress bars go only there).
func isTerminal(w io.Writer) bool {
	if o, ok := w.(*outWriter); ok {
		w = o.f
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// variantSet parses herd's comma-separated -variant list.
func variantSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, v := range splitList(s) {
		m[v] = true
	}
	return m
}

// parseInterleaved parses args as herd7 does: flags may come before,
// between and after the files. It returns the operands in order. "--"
// ends the flags; everything after it is an operand.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// fs.Parse stops at the first operand, or after "--".
		if len(rest) == 0 {
			return operands, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// parseCommand parses a command's arguments with parseInterleaved. When
// they do not parse, ok is false and code is the command's exit status: 0
// after -help, 2 for a bad flag (the flag set has printed why).
//
// Every command gets the resource flags here: -memory and -max-input.
func parseCommand(fs *flag.FlagSet, args []string) (operands []string, code int, ok bool) {
	addResourceFlags(fs)
	full := fs.Usage
	if full == nil {
		full = fs.PrintDefaults
	}
	// A wrong flag gets the one-line usage and the hint, not every flag;
	// -h gets them all, and only them. The flag package calls Usage for
	// both before returning, so it is silent during the parse and the
	// right one is printed after.
	fs.Usage = func() {}
	operands, err := parseInterleaved(fs, args)
	fs.Usage = full
	switch {
	case errors.Is(err, flag.ErrHelp):
		full()
		return nil, 0, false
	case err != nil:
		shortUsage(fs, full)
		return nil, 2, false
	}
	operands, err = stdinOperand(fs.Name(), operands)
	if err == nil {
		err = refuseFolders(fs.Name(), operands)
	}
	if err != nil {
		return nil, usageError(fs, fs.Output(), "%v", err), false
	}
	return operands, 0, true
}

// stdinCommands are the commands whose operands are input files: there an
// operand "-" is the standard input, as in herd7 and most Unix tools
// (before, it was "stat -: no such file or directory").
var stdinCommands = map[string]bool{
	"litmus": true, "check": true, "compare": true, "param": true,
	"prove": true, "fix": true, "diff": true, "merge": true,
}

// stdinOperand replaces the operand "-" by /dev/stdin for the commands
// that read files (the file's kind then follows from its contents or the
// command: a C program through check needs a .c file). Standard input can
// be read once only: "-" twice is refused.
func stdinOperand(command string, operands []string) ([]string, error) {
	if !stdinCommands[command] {
		return operands, nil
	}
	seen := false
	for i, o := range operands {
		if o != "-" {
			continue
		}
		if seen {
			return nil, fmt.Errorf("\"-\" (the standard input) given twice: it can be read once only")
		}
		seen = true
		operands[i] = "/dev/stdin"
	}
	return operands, nil
}

// fileCommands are the commands whose operands must be files: a folder
// given to them is refused here, with the command's name, rather than
// where it is read ("read DIR: is a directory", with no "musket CMD:").
// litmus reads folders; fix, diff and merge say so themselves.
var fileCommands = map[string]bool{
	"check": true, "compare": true, "param": true, "prove": true,
}

// refuseFolders returns an error naming the first operand of a
// fileCommands command that is a folder.
func refuseFolders(command string, operands []string) error {
	if !fileCommands[command] {
		return nil
	}
	for _, o := range operands {
		if st, err := os.Stat(o); err == nil && st.IsDir() {
			hint := ""
			if command != "param" {
				hint = " (musket litmus runs the tests of a folder)"
			}
			return fmt.Errorf("%s is a folder: %s takes files%s", o, command, hint)
		}
	}
	return nil
}

// synopses are the one-line usages of the commands, by flag set name.
var synopses = map[string]string{
	"litmus":        "usage: musket litmus [flags] FILE.litmus|FOLDER|@LIST ...",
	"check":         "usage: musket check [flags] PROGRAM.pts|PROGRAM.c|TEST.litmus ...",
	"compare":       "usage: musket compare -source SIDE -target SIDE [flags] FILE ...",
	"param":         "usage: musket param [flags] FILE.cub",
	"prove":         "usage: musket prove -model sc|tso|pso [flags] TEST.litmus ...",
	"models":        "usage: musket models",
	"bench c":       "usage: musket bench c [flags] [PROGRAM.c ...]",
	"bench mutex":   "usage: musket bench mutex [flags]",
	"bench porthos": "usage: musket bench porthos [flags]",
	"bench cubicle": "usage: musket bench cubicle [flags]",
	"bench asm":     "usage: musket bench asm [flags]",
}

// synopsisUsage is the full help of a command without a text of its own:
// its one-line usage, then its flags.
func synopsisUsage(fs *flag.FlagSet) func() {
	return func() {
		fmt.Fprintln(fs.Output(), synopses[fs.Name()])
		fs.PrintDefaults()
	}
}

// shortUsage prints the command's one-line usage and where the rest is.
func shortUsage(fs *flag.FlagSet, _ func()) {
	line, ok := synopses[fs.Name()]
	if !ok {
		line = "usage: musket " + fs.Name() + " [flags] [files]"
	}
	fmt.Fprintln(fs.Output(), line)
	fmt.Fprintf(fs.Output(), "Run 'musket %s -h' for the flags.\n", fs.Name())
}

// sizeFlag is a size in bytes given as 512M, 4G, ... (memlimit.Parse),
// applied by set when the flag is given.
type sizeFlag struct {
	n     int64
	set   func(int64)
	check func(int64) error // refuses a size, when not nil
}

func (f *sizeFlag) String() string {
	if f == nil {
		return ""
	}
	return memlimit.Format(f.n)
}

func (f *sizeFlag) Set(s string) error {
	n, err := memlimit.Parse(s)
	if err == nil && f.check != nil {
		err = f.check(n)
	}
	if err != nil {
		return err
	}
	f.n = n
	f.set(n)
	return nil
}

// addResourceFlags declares -memory and -max-input on fs. Their defaults
// are set once for the process (applyResourceDefaults); a flag given
// changes them.
func addResourceFlags(fs *flag.FlagSet) {
	if fs.Lookup("memory") == nil {
		fs.Var(&sizeFlag{n: memlimit.Default(), set: memlimit.Set, check: memlimit.CheckLimit}, "memory",
			"memory `limit` (e.g. 2G, 512M; at least 16M; 0: none): a test or program that reaches it is stopped and reported as \"memory limit\" (exit status 3); Z3 gets the same limit (default: 3/4 of the machine's memory, at most 8G)")
	}
	if fs.Lookup("max-input") == nil {
		fs.Var(&sizeFlag{n: source.DefaultMaxInput, set: source.SetMaxInput}, "max-input",
			"largest input `size` read (a test, model, program or list; e.g. 256M; 0: none); a larger file is refused (exit status 2)")
	}
}

// applyResourceDefaults sets the process's memory limit to its default.
func applyResourceDefaults() {
	memlimit.Set(memlimit.Default())
}
