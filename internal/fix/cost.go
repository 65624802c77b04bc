package fix

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/source"
)

// Costs gives the cost of each insertion, by target and by the name of
// the insertion (a fence mnemonic in lower case, or a stronger access).
// Only the insertions a table names are candidates: leaving one out takes
// it out of the repertoire.
type Costs map[string]map[string]int

// DefaultCosts is the table Musket uses unless -costs replaces it. The
// numbers rank the insertions of a target as the users asked and
// as the manufacturers' documentation orders them (a lighter fence is
// cheaper); they are not cycle counts and do not compare across targets.
//
//	x86      mfence 1; xchg 1 (a store MOV [x],v made the locked RMW
//	         MOV r,v; XCHG [x],r, as Linux's smp_store_mb does on x86;
//	         at equal cost the fence is chosen)
//	power    addr 1, data 1 (a dependency on a load: see deps.go)
//	         < lwsync 2, ctrlisync 2 (after a load: a control
//	         dependency on its register, then isync) < sync 4
//	aarch64  addr 1, data 1 < ldapr 2, ldar 2, stlr 2 (an LDR made
//	         LDAPR or LDAR, an STR made STLR; LDAPR, the weaker, is
//	         offered first), dmb ishld 2, dmb ishst 2 < dmb ish 4
//	riscv    addr 1, data 1 < fence r,r 2, fence w,w 2, fence r,w 2,
//	         fence r,rw 2, fence rw,w 2 < fence.tso 4 < fence w,r 5,
//	         fence w,rw 5, fence rw,r 5 (a write before a read: the
//	         store buffer drained, as for a full fence) < fence rw,rw 6
//	armv7    addr 1, data 1 < dmb st 2 < dmb 4 (dmb ish 4: the C11
//	         mappings' fence)
//	sparc    membar #LoadLoad, #StoreStore, #LoadStore 1 < #StoreLoad 2
//	c11      an access's order, priced by the order reached: acquire 1,
//	         release 1, acq_rel 1, seq_cst 2 (relaxed 0; strengthening
//	         costs the difference); atomic_thread_fence: acquire 2,
//	         release 2, acq_rel 2, seq_cst 3
//
// A dependency costs one ALU instruction and no pipeline drain, so it is
// the cheapest order where it applies (a load before a later access of
// its thread); the barriers of the hardware targets are priced at twice
// their rank so that it is cheaper than the lightest of them.
func DefaultCosts() Costs {
	return Costs{
		"x86":     {"mfence": 1, "xchg": 1},
		"power":   {"addr": 1, "data": 1, "lwsync": 2, "ctrlisync": 2, "sync": 4},
		"aarch64": {"addr": 1, "data": 1, "ldapr": 2, "ldar": 2, "stlr": 2, "dmb ishld": 2, "dmb ishst": 2, "dmb ish": 4},
		"riscv": {"addr": 1, "data": 1, "fence r,r": 2, "fence w,w": 2, "fence r,rw": 2, "fence rw,w": 2, "fence r,w": 2,
			"fence.tso": 4, "fence w,r": 5, "fence w,rw": 5, "fence rw,r": 5, "fence rw,rw": 6},
		"armv7": {"addr": 1, "data": 1, "dmb st": 2, "dmb": 4, "dmb ish": 4},
		"sparc": {"membar #loadload": 1, "membar #storestore": 1, "membar #loadstore": 1, "membar #storeload": 2},
		"c11": {"relaxed": 0, "acquire": 1, "release": 1, "acq_rel": 1, "seq_cst": 2,
			"fence acquire": 2, "fence release": 2, "fence acq_rel": 2, "fence seq_cst": 3},
	}
}

// ReadCosts reads a cost table: one "TARGET NAME COST" a line (NAME may
// contain spaces: "power sync 2", "aarch64 dmb ish 2", "c11 fence seq_cst
// 3"), '#' starting a comment. The targets are x86, power, aarch64,
// riscv, armv7, sparc and c11. A target the file names replaces that target's
// default row entirely; the others keep theirs.
func ReadCosts(path string) (Costs, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCosts(path, data)
}

// ParseCosts is ReadCosts on the text of a file.
func ParseCosts(path string, data []byte) (Costs, error) {
	def := DefaultCosts()
	read := Costs{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 {
			return nil, costError("%s:%d:1: want TARGET NAME COST, found %q", path, line, strings.TrimSpace(text))
		}
		target := strings.ToLower(f[0])
		if _, ok := def[target]; !ok {
			return nil, costError("%s:%d:1: unknown target %q (want %s)", path, line, f[0], strings.Join(def.targets(), ", "))
		}
		name := strings.ToLower(strings.Join(f[1:len(f)-1], " "))
		if _, ok := def[target][name]; !ok {
			return nil, costError("%s:%d:1: %s has no insertion %q (it has %s)", path, line, target, name, strings.Join(def.names(target), ", "))
		}
		c, err := strconv.Atoi(f[len(f)-1])
		if err != nil || c < 0 {
			return nil, costError("%s:%d:1: cost %q is not a non-negative integer", path, line, f[len(f)-1])
		}
		if read[target] == nil {
			read[target] = map[string]int{}
		}
		read[target][name] = c
	}
	if err := sc.Err(); err != nil {
		return nil, costError("%s:%d:1: %v", path, line+1, err)
	}
	for t, row := range read {
		def[t] = row
	}
	return def, nil
}

// costError is an error of a cost table, cut (source.ClipMessage) when
// it quotes a huge token of the file.
func costError(format string, args ...any) error {
	return errors.New(source.ClipMessage(fmt.Sprintf(format, args...)))
}

func (c Costs) targets() []string {
	var out []string
	for t := range c {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

func (c Costs) names(target string) []string {
	var out []string
	for n := range c[target] {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// cost is the cost of name on target and whether the table offers it.
func (c Costs) cost(target, name string) (int, bool) {
	v, ok := c[target][name]
	return v, ok
}
