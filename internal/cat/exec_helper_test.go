package cat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/rel"
)

// A small builder of candidate executions for tests, in the shape herd7
// gives them: one initial write per location (outside every thread),
// then the threads' events in program order.

type evSpec struct {
	kind string // "R", "W", "F"
	loc  string // "" for fences
	tags []string
}

type testExec struct {
	locs    []string
	threads [][]evSpec
	rf      [][2]string // write label, read label ("x0" is x's initial write)
	co      [][]string  // per location, the order of the non-initial writes (optional)
	rmw     [][2]string // read label, write label of one atomic instruction
	final   []string    // labels of the final writes (FW) when pinned
}

// labels: "x0" initial write of x; "T0.1" second event of thread 0.
type builtExec struct {
	x      *Execution
	labels map[string]int
	names  []string
}

func (b *builtExec) ev(label string) int {
	e, ok := b.labels[label]
	if !ok {
		panic("no event " + label)
	}
	return e
}

func build(t *testing.T, te testExec) *builtExec {
	t.Helper()
	b := &builtExec{labels: map[string]int{}}
	thread := []int{}
	type info struct {
		kind, loc string
		tags      []string
	}
	var infos []info
	for _, l := range te.locs {
		b.labels[l+"0"] = len(infos)
		b.names = append(b.names, l+"0")
		infos = append(infos, info{"W", l, []string{"IW"}})
		thread = append(thread, -1-len(thread))
	}
	for ti, evs := range te.threads {
		for k, ev := range evs {
			label := fmt.Sprintf("T%d.%d", ti, k)
			b.labels[label] = len(infos)
			b.names = append(b.names, label)
			infos = append(infos, info{ev.kind, ev.loc, ev.tags})
			thread = append(thread, ti)
		}
	}
	n := len(infos)
	sets := map[string][]int{}
	locIdx := map[string]int{}
	for i, l := range te.locs {
		locIdx[l] = i
	}
	loc := make([]int, n)
	for e, in := range infos {
		sets[in.kind] = append(sets[in.kind], e)
		if in.kind != "F" {
			sets["M"] = append(sets["M"], e)
			sets["Exp"] = append(sets["Exp"], e)
			loc[e] = locIdx[in.loc]
		} else {
			loc[e] = -1
		}
		for _, tg := range in.tags {
			sets[tg] = append(sets[tg], e)
		}
	}
	x := &Execution{N: n, Sets: map[string]rel.Set{}, Rels: map[string]rel.Rel{}, Loc: loc}
	for _, name := range []string{"R", "W", "M", "F", "IW", "FW", "X", "MFENCE", "mfence", "A"} {
		x.Sets[name] = rel.NewSet(n)
	}
	for name, es := range sets {
		x.Sets[name] = rel.SetOf(n, es...)
	}
	x.Sets["mfence"] = x.Sets["MFENCE"]
	x.Sets["A"] = x.Sets["X"]
	var fw []int
	for _, l := range te.final {
		fw = append(fw, b.ev(l))
	}
	x.Sets["FW"] = rel.SetOf(n, fw...)
	po, locR, intR, extR, id := rel.NewBuilder(n), rel.NewBuilder(n), rel.NewBuilder(n), rel.NewBuilder(n), rel.NewBuilder(n)
	for i := 0; i < n; i++ {
		id.Add(i, i)
		for j := 0; j < n; j++ {
			if thread[i] == thread[j] {
				intR.Add(i, j)
				if thread[i] >= 0 && i < j {
					po.Add(i, j)
				}
			} else {
				extR.Add(i, j)
			}
			if loc[i] >= 0 && loc[i] == loc[j] {
				locR.Add(i, j)
			}
		}
	}
	x.Rels["po"], x.Rels["loc"], x.Rels["int"], x.Rels["ext"], x.Rels["id"] = po.Rel(), locR.Rel(), intR.Rel(), extR.Rel(), id.Rel()
	rf := rel.NewBuilder(n)
	for _, p := range te.rf {
		rf.Add(b.ev(p[0]), b.ev(p[1]))
	}
	x.Rels["rf"] = rf.Rel()
	rmw, si := rel.NewBuilder(n), rel.NewBuilder(n)
	for i := 0; i < n; i++ {
		si.Add(i, i)
	}
	for _, p := range te.rmw {
		r, w := b.ev(p[0]), b.ev(p[1])
		rmw.Add(r, w)
		si.Add(r, w)
		si.Add(w, r)
	}
	x.Rels["rmw"], x.Rels["amo"], x.Rels["same-instance"] = rmw.Rel(), rmw.Rel(), si.Rel()
	x.Rels["lxsx"] = rel.NewRel(n)
	x.Rels["id"] = rel.Identity(rel.Full(n))
	for _, name := range []string{"addr", "data", "ctrl", "iico_data", "iico_ctrl"} {
		x.Rels[name] = rel.NewRel(n)
	}
	b.x = x
	if te.co != nil {
		co := rel.NewBuilder(n)
		for li, order := range te.co {
			chain := append([]int{b.ev(te.locs[li] + "0")}, nil...)
			for _, l := range order {
				chain = append(chain, b.ev(l))
			}
			for i := range chain {
				for j := i + 1; j < len(chain); j++ {
					co.Add(chain[i], chain[j])
				}
			}
		}
		b.setCo(co.Rel())
	}
	return b
}

// setCo gives the execution a coherence order and what derives from it,
// as engines do for models that do not bind co.
func (b *builtExec) setCo(co rel.Rel) {
	x := b.x
	fr := x.Rels["rf"].Inverse().Seq(co).Diff(x.Rels["id"])
	x.Rels["co"] = co
	x.Rels["coi"], x.Rels["coe"] = co.Inter(x.Rels["int"]), co.Inter(x.Rels["ext"])
	x.Rels["fr"] = fr
	x.Rels["fri"], x.Rels["fre"] = fr.Inter(x.Rels["int"]), fr.Inter(x.Rels["ext"])
	x.Rels["rfi"], x.Rels["rfe"] = x.Rels["rf"].Inter(x.Rels["int"]), x.Rels["rf"].Inter(x.Rels["ext"])
}

// withoutCo drops the relations a co-generating model makes itself.
func (b *builtExec) withoutCo() *Execution {
	x := *b.x
	x.Rels = map[string]rel.Rel{}
	for k, v := range b.x.Rels {
		switch k {
		case "co", "coi", "coe", "fr", "fri", "fre":
			continue
		}
		x.Rels[k] = v
	}
	return &x
}

// outcomes runs m on x and returns all outcomes.
func outcomes(t *testing.T, m *Model, x *Execution, variants ...string) []Outcome {
	t.Helper()
	opts := CheckOptions{Variants: map[string]bool{}}
	for _, v := range variants {
		opts.Variants[v] = true
	}
	var out []Outcome
	var cos []string
	err := m.Check(x, opts, func(o Outcome) bool {
		co, _ := o.Rel("co")
		cos = append(cos, co.String())
		out = append(out, o)
		return true
	})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return out
}

func summary(os []Outcome) string {
	var parts []string
	for _, o := range os {
		if o.Accepted {
			parts = append(parts, "ok")
		} else {
			parts = append(parts, "fail:"+o.Failed)
		}
	}
	return strings.Join(parts, " ")
}
