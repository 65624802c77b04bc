package bmc_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

const namesTest = `AArch64 names
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0             | P1              ;
 LDR W0,[X1]    | LDXR W0,[X1]    ;
 EOR W2,W0,W0   | STXR W4,W0,[X1] ;
 STR W2,[X3]    | DMB SY          ;
                | STR W0,[X3]     ;
exists (0:X0=1 /\ 1:X0=1)`

// predefined is the whole list of names a model may use unbound, as
// package cat keeps it.
func predefined() []string {
	var all []string
	all = append(all, cat.ExecutionSets...)
	all = append(all, cat.ExecutionRels...)
	all = append(all, cat.DerivedNames...)
	all = append(all, cat.EmptySetNames()...)
	all = append(all, cat.EmptyRelNames()...)
	slices.Sort(all)
	return slices.Compact(all)
}

// TestPredefinedNamesSame checks that the engines define the same names
// a model may use without binding them: the built-in functions, the sets
// and relations of an execution, those empty by default and those derived
// (herd's aarch64.cat, which uses iico_order, could not be loaded by the
// SMT engine). Each name of package cat's list is used by a model under
// both engines, which must agree, or the SMT engine must refuse it by
// name; and the SMT engine defines no name outside the list.
func TestPredefinedNamesSame(t *testing.T) {
	fe, err := litmus.Lookup("AArch64")
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.ParseWith("names.litmus", []byte(namesTest), fe)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, n := range predefined() {
		listed[n] = true
	}

	t.Run("functions", func(t *testing.T) {
		if a, b := cat.FunctionNames(), bmc.BuiltinNames(); !slices.Equal(a, b) {
			t.Errorf("built-in functions differ:\nexplicit engine %v\nSMT engine      %v", a, b)
		}
	})

	t.Run("inputs", func(t *testing.T) {
		m := loadModel(t, "acyclic po as sc\n")
		names, err := bmc.InputNames(lt, m, bmc.Options{TagNames: fe.Tags()})
		if err != nil {
			t.Fatal(err)
		}
		tags := map[string]bool{}
		for _, tg := range fe.Tags() {
			tags[tg] = true
		}
		for alias := range event.TagAliases {
			tags[alias] = true
		}
		for _, n := range names {
			if !listed[n] && !tags[n] {
				t.Errorf("the SMT engine gives %s, which package cat's list of predefined names lacks", n)
			}
		}
		// The explicit engine's static sets and relations are listed too.
		g := (&event.Graph{TagNames: fe.Tags()}).Static()
		for n := range g.Sets {
			if !listed[n] && !tags[n] && n != "_" {
				t.Errorf("the explicit engine gives set %s, which package cat's list lacks", n)
			}
		}
		for n := range g.Rels {
			if !listed[n] {
				t.Errorf("the explicit engine gives relation %s, which package cat's list lacks", n)
			}
		}
	})

	for _, name := range predefined() {
		t.Run(name, func(t *testing.T) {
			m := loadModel(t, fmt.Sprintf("let used = %s\nflag ~empty used as nonempty\n", name))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
			defer cancel()
			a := enum.Run(ctx, lt, m, "names", enum.Options{TagNames: fe.Tags()})
			b := bmc.Run(ctx, lt, m, "names", bmc.Options{TagNames: fe.Tags()})
			if a.Status != result.Done {
				t.Fatalf("explicit engine: %s %v", a.Status, a.Err)
			}
			switch b.Status {
			case result.Done:
				if fmt.Sprint(a.Flags) != fmt.Sprint(b.Flags) || stateSet(a) != stateSet(b) {
					t.Errorf("explicit engine flags %v {%s}, SMT engine flags %v {%s}", a.Flags, stateSet(a), b.Flags, stateSet(b))
				}
			case result.Unsupported:
				var u *bmc.UnsupportedError
				if !errors.As(b.Err, &u) || !strings.Contains(u.What, name) {
					t.Errorf("SMT engine refuses %s without naming it: %v", name, b.Err)
				}
			default:
				t.Errorf("SMT engine: %s %v", b.Status, b.Err)
			}
		})
	}
}

func loadModel(t *testing.T, src string) *cat.Model {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.cat")
	if err := os.WriteFile(path, []byte("\"names\"\n"+src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := cat.Load(path, cat.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
