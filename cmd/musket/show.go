package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

// checkShowFlags validates herd7's display options of the litmus
// command; it returns what is wrong, or "".
func checkShowFlags(engine, show, outDir, events, through string, skip bool) string {
	switch show {
	case "", "none", "prop", "neg", "cond", "wit", "all":
	default:
		return fmt.Sprintf("unknown -show %q (want prop, neg, cond, wit, all or none)", show)
	}
	switch events {
	case "all", "mem", "noregs":
	default:
		return fmt.Sprintf("unknown -showevents %q (want all, mem or noregs)", events)
	}
	switch through {
	case "none", "invalid", "all":
	default:
		return fmt.Sprintf("unknown -through %q (want none, invalid or all)", through)
	}
	if engine != "enum" && (outDir != "" || through != "none" || skip) {
		return "-o, -through and -skipchecks need every candidate execution: use the explicit engine (-engine enum)"
	}
	return ""
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// writeShown writes the executions of r that -show selected to file name
// (-o): one graph, one cluster per execution.
func writeShown(name string, r *result.Result, events string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := createAtomic(name)
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", name, err)
	}
	if err := report.DotAll(f, r.Name, r.Shown, events); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}
