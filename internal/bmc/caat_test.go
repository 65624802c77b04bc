package bmc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestDerivedSame: with the checks compiled into the theory's derived
// relations (Options.Derived, caat.go) the final states, verdicts and
// flags are those of the explicit engine, under SC, TSO and models that
// use each operator the compiler takes apart (closures, inverse,
// intersection with a fixed relation and with another, let rec, a let
// rec also used by a flag); the theory really finds violations.
func TestDerivedSame(t *testing.T) {
	dir := t.TempDir()
	sources := map[string]string{
		"ops": `"ops"
let com = rf | co | fr
acyclic po | com as sc
irreflexive (rf^-1 ; (po & (W * R))) ; co? as inv`,
		"rec": `"rec"
let rec t = (fr & ext) | (t ; po ; t)
acyclic (t | po | co | rf) as c
irreflexive (t & (po | fr))+ ; po as d`,
		"rec-flag": `"rec-flag"
let rec t = (fr & ext) | (t ; po ; t)
acyclic (t | po | co | rf) as c
flag ~empty (t ; po ; t) as twice`,
		"inter": `"inter"
let hb = po | rf
acyclic co | (hb+ & (co ; hb*)) | (hb & loc) as a
acyclic po-loc | rf | co | fr as b`,
	}
	models := map[string]*cat.Model{}
	for _, name := range []string{"sc", "tso"} {
		m, err := cat.LoadBuiltin(name)
		if err != nil {
			t.Fatal(err)
		}
		models[name] = m
	}
	for name, src := range sources {
		path := filepath.Join(dir, name+".cat")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := cat.Load(path, cat.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		models[name] = m
	}
	fe, _ := litmus.Lookup("X86")
	conflicts := 0
	for name, m := range models {
		for _, tc := range smallTests {
			lt, err := litmus.Parse(tc.name+".litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
			a := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()})
			b, rb := bmc.RunReport(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags(), Derived: "on"})
			cancel()
			if a.Status != result.Done || b.Status != result.Done {
				t.Fatalf("%s/%s: enum %s %v, derived %s %v", name, tc.name, a.Status, a.Err, b.Status, b.Err)
			}
			if stateSet(a) != stateSet(b) || a.Ok() != b.Ok() || fmt.Sprint(a.Flags) != fmt.Sprint(b.Flags) {
				t.Errorf("%s/%s: enum %v {%s} %v, derived %v {%s} %v", name, tc.name, a.Ok(), stateSet(a), a.Flags, b.Ok(), stateSet(b), b.Flags)
			}
			if rb.Stats.LazyMisses != 0 {
				t.Errorf("%s/%s: %d models with a violation the theory let through", name, tc.name, rb.Stats.LazyMisses)
			}
			conflicts += rb.Stats.LazyConflicts
		}
	}
	if conflicts == 0 {
		t.Error("no violation found by the theory on any test")
	}
}
