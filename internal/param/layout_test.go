package param

import (
	"reflect"
	"testing"
)

// TestNoPadding checks that the values the fixpoint test hashes by the
// million (terms and literals, as map keys) leave no padding between
// or after their fields: Go then hashes and compares them as plain
// memory instead of field by field.
func TestNoPadding(t *testing.T) {
	for _, v := range []any{Term{}, Sort{}, Lit{}, Access{}, Rat{}} {
		typ := reflect.TypeOf(v)
		sum := uintptr(0)
		for i := 0; i < typ.NumField(); i++ {
			sum += typ.Field(i).Type.Size()
		}
		if sum != typ.Size() {
			t.Errorf("%s: %d bytes of fields in %d bytes: %d bytes of padding", typ.Name(), sum, typ.Size(), typ.Size()-sum)
		}
	}
}

// TestGuardAltsKeep: the alternatives of a forall_other that contradict
// the literals the pre-image keeps, or each other, are not built; the
// others are, unchanged.
func TestGuardAltsKeep(t *testing.T) {
	const src = `
type loc = A | B | C
array PC[proc] : loc
init (p) { PC[p] = A }
unsafe (p) { PC[p] = C }
transition t ([p])
requires { PC[p] = A && forall_other q. (PC[q] = A || PC[q] = B) }
{ PC[p] := C }
`
	sys, err := Load("g.cub", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tr := sys.Trans[0]
	pc := func(s int32, v int32) Lit {
		l, _ := mkLit(Eq, Term{Kind: KVar, Sort: tr.Guard[0].Lits[0].L.Sort, Sym: tr.Guard[0].Lits[0].L.Sym, NArgs: 1, Args: [maxArity]int32{s}, Off: Rat{0, 1}},
			Term{Kind: KEnum, Sort: tr.Guard[0].Lits[0].R.Sort, Sym: v, Off: Rat{0, 1}})
		return l
	}
	never := func() bool { return false }
	for _, tc := range []struct {
		name string
		keep []Lit
		want int
	}{
		{"nothing kept: 2 x 2 alternatives", nil, 4},
		{"#2 = C: none", []Lit{pc(2, 2)}, 0},
		{"#2 = B: 1 x 2", []Lit{pc(2, 1)}, 2},
		{"#2 = A and #3 = B: 1", []Lit{pc(2, 0), pc(3, 1)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := &instEnv{args: []int32{1}}
			alts := guardAlts(tr.Guard[0], env, []int32{1, 2, 3}, 4, never, tc.keep)
			if len(alts) != tc.want {
				t.Errorf("%d alternatives, want %d", len(alts), tc.want)
			}
			for _, a := range alts {
				if conflicting(a.lits, tc.keep) || conflicting(a.lits, a.lits) {
					t.Errorf("alternative %v contradicts", a.lits)
				}
			}
		})
	}
}
