package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"strings"
)

// listFlag is a repeatable string flag (e.g. -I DIR -I DIR2).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// isTerminal tells whether w is a terminal (progress bars go only there).
func isTerminal(w io.Writer) bool {
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
func parseCommand(fs *flag.FlagSet, args []string) (operands []string, code int, ok bool) {
	operands, err := parseInterleaved(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, 0, false
	case err != nil:
		return nil, 2, false
	}
	return operands, 0, true
}
