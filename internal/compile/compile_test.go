package compile

import (
	"fmt"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/pts"
	"github.com/musket-verify/musket/internal/spec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const corpusDir = "../../../shared/corpus/mutex/pts"

// tableI is Table I of "BMC with Memory Models as Modules" (FMCAD 2018)
// as the paper prints it (columns x86,
// Power, ARMv7).
const tableI = `
Load rx	MOV	lwz	ldr
Load con	MOV	lwz; lwsync	ldr; dmb ish
Load acq	MOV	lwz; lwsync	ldr; dmb ish
Load sc	MOV	sync; lwz; lwsync	ldr; dmb ish
Store rx	MOV	stw	str
Store rel	MOV	lwsync; stw	dmb ish; str
Store sc	MOV; mfence	sync; stw	dmb ish; str; dmb ish
`

// otherTables are the AArch64 mapping (Cambridge C/C++11 mappings) and
// the RISC-V one (Table A.6 of the RISC-V manual; consume as acquire).
const otherTables = `
Load rx	LDR	lw
Load con	LDAR	lw; fence r,rw
Load acq	LDAR	lw; fence r,rw
Load sc	LDAR	fence rw,rw; lw; fence r,rw
Store rx	STR	sw
Store rel	STLR	fence rw,w; sw
Store sc	STLR	fence rw,w; sw
`

// instrOf is what each mnemonic must compile to, for the access
// "r = x.load" or "x.store(1)".
var instrOf = map[string]string{
	"MOV": "ACCESS", "lwz": "ACCESS", "stw": "ACCESS", "ldr": "ACCESS", "str": "ACCESS",
	"LDR": "ACCESS", "STR": "ACCESS", "lw": "ACCESS", "sw": "ACCESS",
	"LDAR": "ACCESS.A", "STLR": "ACCESS.L",
	"mfence": "fence.MFENCE", "sync": "fence.SYNC", "lwsync": "fence.LWSYNC",
	"dmb ish":     "fence.DMB.ISH",
	"fence rw,rw": "fence.Fence.rw.rw", "fence r,rw": "fence.Fence.r.rw", "fence rw,w": "fence.Fence.rw.w",
}

type row struct {
	kind  Kind
	order string
	want  map[string][]string // target to mnemonics
}

func parseTable(t *testing.T, text string, targets ...string) []row {
	var rows []row
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) != len(targets)+1 {
			t.Fatalf("table line %q", line)
		}
		head := strings.Fields(cols[0])
		r := row{kind: Load, order: head[1], want: map[string][]string{}}
		if head[0] == "Store" {
			r.kind = Store
		}
		for i, target := range targets {
			for _, m := range strings.Split(cols[i+1], ";") {
				r.want[target] = append(r.want[target], strings.TrimSpace(m))
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// single returns a one-thread test with one access of the kind and order.
func single(kind Kind, order string) *spec.Test {
	var in prog.Instr = prog.Load{Dst: "r", Addr: prog.Addr("x"), Tags: []string{order}}
	if kind == Store {
		in = prog.Store{Addr: prog.Addr("x"), Val: prog.Int(1), Tags: []string{order}}
	}
	return &spec.Test{Arch: pts.Arch, Threads: []*prog.Thread{{Name: "t0", Code: []prog.Instr{in}}}}
}

func TestMappings(t *testing.T) {
	rows := append(parseTable(t, tableI, X86, Power, ARMv7), parseTable(t, otherTables, AArch64, RISCV)...)
	covered := 0
	for _, r := range rows {
		for target, mnemonics := range r.want {
			t.Run(fmt.Sprintf("%s/%s_%s", target, r.kind, r.order), func(t *testing.T) {
				steps, ok := Mapping(target, r.kind, r.order)
				if !ok {
					t.Fatal("no mapping")
				}
				var got []string
				for _, s := range steps {
					got = append(got, s.Mnemonic)
				}
				if !slices.Equal(got, mnemonics) {
					t.Errorf("mnemonics %v, want %v", got, mnemonics)
				}
				src := single(r.kind, r.order)
				c, err := CompileMap(src, target)
				if err != nil {
					t.Fatal(err)
				}
				access := prog.InstrString(src.Threads[0].Code[0])
				plain := strings.Replace(access, "."+r.order, "", 1)
				var want []string
				for _, m := range mnemonics {
					w, ok := instrOf[m]
					if !ok {
						t.Fatalf("unknown mnemonic %q", m)
					}
					if tag, ok := strings.CutPrefix(w, "ACCESS"); ok {
						w = strings.Replace(plain, "load", "load"+tag, 1)
						w = strings.Replace(w, "store", "store"+tag, 1)
					}
					want = append(want, w)
				}
				var code []string
				for _, in := range c.Test.Threads[0].Code {
					code = append(code, prog.InstrString(in))
				}
				if !slices.Equal(code, want) {
					t.Errorf("code %q, want %q", code, want)
				}
				if !slices.Equal(c.Origin[0], make([]int, len(want))) {
					t.Errorf("origin %v", c.Origin[0])
				}
				if c.Access(0, 0) < 0 {
					t.Errorf("no access for the source access")
				}
			})
			covered++
		}
	}
	if covered != len(mappings) {
		t.Errorf("tested %d rows, the table has %d", covered, len(mappings))
	}
}

func TestTags(t *testing.T) {
	want := map[string][]string{
		X86:     {"MFENCE"},
		Power:   {"LWSYNC", "SYNC"},
		ARMv7:   {"DMB.ISH"},
		AArch64: {"A", "L"},
		RISCV:   {"Fence.r.rw", "Fence.rw.rw", "Fence.rw.w"},
	}
	if got := Targets(); !slices.Equal(got, []string{AArch64, ARMv7, Power, RISCV, X86}) {
		t.Errorf("targets %v", got)
	}
	for _, target := range Targets() {
		if got := Tags(target); !slices.Equal(got, want[target]) {
			t.Errorf("%s: tags %v, want %v", target, got, want[target])
		}
	}
}

func TestCompileErrors(t *testing.T) {
	x := prog.Addr("x")
	tests := []struct {
		name   string
		in     prog.Instr
		target string
		want   string
	}{
		{"store acquire", prog.Store{Addr: x, Val: prog.Int(1), Tags: []string{"acq"}}, X86, "no x86 mapping for a Store with order acq"},
		{"load release", prog.Load{Dst: "r", Addr: x, Tags: []string{"rel"}}, Power, "no power mapping for a Load with order rel"},
		{"no order", prog.Load{Dst: "r", Addr: x}, ARMv7, "want exactly one memory order tag"},
		{"two orders", prog.Load{Dst: "r", Addr: x, Tags: []string{"rx", "sc"}}, ARMv7, "want exactly one memory order tag"},
		{"hardware tag", prog.Load{Dst: "r", Addr: x, Tags: []string{"A"}}, AArch64, "no aarch64 mapping for a Load with order A"},
		{"rmw", prog.RMW{Dst: "r", Addr: x, New: prog.Int(1)}, RISCV, "has no riscv mapping"},
		{"fence", prog.Fence{Tags: []string{"sc"}}, X86, "has no x86 mapping"},
		{"target", prog.Load{Dst: "r", Addr: x, Tags: []string{"rx"}}, "sparc", `unknown compilation target "sparc"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := &spec.Test{Threads: []*prog.Thread{{Name: "t0",
				Code: []prog.Instr{tc.in}, Pos: []prog.Pos{{File: "f.pts", Line: 3, Col: 4}}}}}
			_, err := Compile(src, tc.target)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if tc.target != "sparc" && !strings.HasPrefix(err.Error(), "f.pts:3:4: t0: ") {
				t.Errorf("error %q has no position", err)
			}
		})
	}
}

func parseCorpus(t *testing.T) []*spec.Test {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.pts"))
	if err != nil || len(files) != 7 {
		t.Fatalf("corpus: %d files (%v)", len(files), err)
	}
	var out []*spec.Test
	for _, f := range files {
		p, err := pts.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// reorder gives the accesses of t orders cycling through those each kind
// accepts, so that the corpus exercises every row.
func reorder(t *spec.Test) *spec.Test {
	loads := []string{pts.Rx, pts.Con, pts.Acq, pts.SC}
	stores := []string{pts.Rx, pts.Rel, pts.SC}
	out := *t
	out.Threads = nil
	n := 0
	for _, th := range t.Threads {
		c := *th
		c.Code = slices.Clone(th.Code)
		for i, in := range c.Code {
			switch in := in.(type) {
			case prog.Load:
				in.Tags = []string{loads[n%len(loads)]}
				c.Code[i] = in
				n++
			case prog.Store:
				in.Tags = []string{stores[n%len(stores)]}
				c.Code[i] = in
				n++
			}
		}
		out.Threads = append(out.Threads, &c)
	}
	return &out
}

// memIndex lists the indices of the memory accesses of th.
func memIndex(th *prog.Thread) []int {
	var out []int
	for i, in := range th.Code {
		if isMem(in) {
			out = append(out, i)
		}
	}
	return out
}

// TestOneAccessPerAccess checks over the corpus (as is and with every
// order, before and after unrolling) that every target keeps one memory
// access per source access, in order, with the same register, address
// and value, and that AccessMap relates the accesses of any two targets
// one to one.
func TestOneAccessPerAccess(t *testing.T) {
	c11 := map[string]bool{}
	for _, o := range pts.Orders() {
		c11[o] = true
	}
	for _, p := range parseCorpus(t) {
		for _, k := range []int{-1, 2} {
			for _, src := range []*spec.Test{p, reorder(p)} {
				if k >= 0 {
					var err error
					if src, err = Unroll(src, k); err != nil {
						t.Fatal(err)
					}
				}
				comp := map[string]*Compiled{}
				for _, target := range Targets() {
					c, err := CompileMap(src, target)
					if err != nil {
						t.Fatalf("%s %s: %v", p.Name, target, err)
					}
					comp[target] = c
					if w, _ := ArchWord(target); c.Test.Arch != w || c.Test.Meta["target"] != target {
						t.Errorf("%s %s: arch %q meta %v", p.Name, target, c.Test.Arch, c.Test.Meta)
					}
					allowed := map[string]bool{}
					for _, tag := range Tags(target) {
						allowed[tag] = true
					}
					for ti, th := range c.Test.Threads {
						sth := src.Threads[ti]
						if len(th.Pos) != len(th.Code) || len(c.Origin[ti]) != len(th.Code) {
							t.Fatalf("%s %s: lengths code %d pos %d origin %d", p.Name, target, len(th.Code), len(th.Pos), len(c.Origin[ti]))
						}
						srcMem, dstMem := memIndex(sth), memIndex(th)
						if len(srcMem) != len(dstMem) {
							t.Fatalf("%s %s %s: %d accesses from %d", p.Name, target, th.Name, len(dstMem), len(srcMem))
						}
						for n, i := range dstMem {
							j := c.Origin[ti][i]
							if j != srcMem[n] || c.Access(ti, j) != i {
								t.Fatalf("%s %s: access %d comes from %d, want %d", p.Name, target, i, j, srcMem[n])
							}
							a, b := sth.Code[j], th.Code[i]
							switch a := a.(type) {
							case prog.Load:
								b := b.(prog.Load)
								if a.Dst != b.Dst || a.Addr != b.Addr {
									t.Fatalf("%s: %s compiled to %s", p.Name, prog.InstrString(a), prog.InstrString(b))
								}
							case prog.Store:
								b := b.(prog.Store)
								if a.Val != b.Val || a.Addr != b.Addr {
									t.Fatalf("%s: %s compiled to %s", p.Name, prog.InstrString(a), prog.InstrString(b))
								}
							}
						}
						for i, in := range th.Code {
							if th.Pos[i] != sth.Pos[c.Origin[ti][i]] {
								t.Fatalf("%s: position of %d", p.Name, i)
							}
							var tags []string
							switch in := in.(type) {
							case prog.Load:
								tags = in.Tags
							case prog.Store:
								tags = in.Tags
							case prog.Fence:
								tags = in.Tags
							}
							for _, tag := range tags {
								if c11[tag] || !allowed[tag] {
									t.Fatalf("%s %s: tag %s on %s", p.Name, target, tag, prog.InstrString(in))
								}
							}
						}
					}
				}
				for _, a := range Targets() {
					for _, b := range Targets() {
						m, err := AccessMap(comp[a], comp[b])
						if err != nil {
							t.Fatal(err)
						}
						for ti := range m {
							am, bm := memIndex(comp[a].Test.Threads[ti]), memIndex(comp[b].Test.Threads[ti])
							for n, i := range bm {
								if m[ti][i] != am[n] {
									t.Fatalf("%s %s->%s: access %d maps to %d, want %d", p.Name, b, a, i, m[ti][i], am[n])
								}
							}
							if got := len(slices.DeleteFunc(slices.Clone(m[ti]), func(x int) bool { return x < 0 })); got != len(bm) {
								t.Fatalf("%s: %d mapped indices for %d accesses", p.Name, got, len(bm))
							}
						}
					}
				}
			}
		}
	}
}

func TestCompileKeepsSource(t *testing.T) {
	p := parseCorpus(t)[0]
	before := prog.InstrString(p.Threads[0].Code[1])
	c, err := Compile(p, Power)
	if err != nil {
		t.Fatal(err)
	}
	if p.Arch != pts.Arch || prog.InstrString(p.Threads[0].Code[1]) != before || p.Meta != nil {
		t.Errorf("Compile changed its input")
	}
	if c.Quant != p.Quant || c.Cond != p.Cond || c.Name != p.Name || len(c.Init) != len(p.Init) {
		t.Errorf("Compile lost the header or the condition")
	}
	other, _ := CompileMap(parseCorpus(t)[1], Power)
	this, _ := CompileMap(p, X86)
	if _, err := AccessMap(this, other); err == nil {
		t.Errorf("AccessMap of different programs succeeded")
	}
}
