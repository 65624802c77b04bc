package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/batch"
)

// The styles of final condition of 'musket gen -cond', as diy7 -cond
// names them:
//
//   - cycle (the default): exists, the values that observe every edge of
//     the cycle;
//   - unicond: forall over the outcomes the architecture's model gives
//     the program, for the same registers and locations (diy computes
//     them by simulating the program; here the explicit engine runs it
//     under the architecture's default model): the test holds on that
//     model, and a machine or another model that gives one more outcome
//     fails it;
//   - observe: no condition, a locations line of the same registers and
//     locations (herd then lists their final values).
var condStyles = []string{"cycle", "unicond", "observe"}

// condAtom is one atom of the generated exists.
var condAtom = regexp.MustCompile(`(\d+:)?\w+=(0x[0-9a-f]+|-?\d+)`)

// restyle rewrites the exists of a generated test of architecture arch
// (gen's name) in another style.
func restyle(text []byte, style, arch string) ([]byte, error) {
	if style == "" || style == "cycle" {
		return text, nil
	}
	// The architectures write "exists" on a line of its own, C tests
	// (C11, the kernel's) "exists (...)".
	i := max(bytes.LastIndex(text, []byte("\nexists\n")), bytes.LastIndex(text, []byte("\nexists (")))
	if i < 0 {
		return nil, fmt.Errorf("no exists in the generated test")
	}
	if style == "unicond" && arch == "LKMM" {
		return nil, fmt.Errorf("the outcomes of a test of the Linux kernel's primitives are its model's, which musket gen does not load (linux-kernel.cfg): use -cond cycle or observe")
	}
	head := text[:i+1]
	switch style {
	case "observe":
		var refs []string
		for _, m := range condAtom.FindAllString(string(text[i:]), -1) {
			refs = append(refs, strings.SplitN(m, "=", 2)[0]+";")
		}
		return append(head, []byte("locations ["+strings.Join(refs, "")+"]\n")...), nil
	case "unicond":
		forall, err := modelOutcomes(text)
		if err != nil {
			return nil, err
		}
		return append(head, []byte("forall\n("+forall+")\n")...), nil
	}
	return nil, fmt.Errorf("unknown -cond %q (want %s)", style, strings.Join(condStyles, ", "))
}

// modelOutcomes runs a generated test under its architecture's model
// and gives its outcomes, over the refs of its condition, as a
// disjunction.
func modelOutcomes(text []byte) (string, error) {
	dir, err := os.MkdirTemp("", "musket-gen-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "t.litmus")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		return "", err
	}
	var out string
	var runErr error
	batch.Run(context.Background(), []string{file}, batch.Options{Engine: "enum", Jobs: 1, Timeout: time.Minute}, func(j batch.Job) {
		switch {
		case j.Err != nil:
			runErr = j.Err
		case j.Result == nil || j.Result.Status.String() != "done":
			runErr = fmt.Errorf("the outcomes under the model are not known: %v", j.Result.Err)
		default:
			r := j.Result
			var ors []string
			for _, s := range r.States {
				var ands []string
				for k, v := range s {
					ands = append(ands, r.Observed[k].String()+"="+v.String())
				}
				ors = append(ors, strings.Join(ands, ` /\ `))
			}
			if len(ors) > 1 {
				for k := range ors {
					ors[k] = "(" + ors[k] + ")"
				}
			}
			out = strings.Join(ors, ` \/ `)
		}
	})
	return out, runErr
}
