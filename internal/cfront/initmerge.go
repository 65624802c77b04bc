package cfront

import (
	"fmt"
	"sort"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// mergeInitStores joins the plain stores of constants that main makes
// before it does anything else into one store of the size another
// access gives the same bytes. atomic_init(&s, (struct pair){50, 50}) on
// an _Atomic struct of 8 bytes is two 4-byte stores (clang splits the
// struct's value), and every later access to s is an 8-byte atomic: the
// object had accesses of two sizes, and the compare-and-swap over its
// two parts was refused as a mixed-size question under every model but
// aarch64.
//
// The argument: the stores are main's first events, before any thread
// is created (the prefix ends at main's first instruction that is
// neither such a store, a register assignment nor a label, and a create writes
// %start), so no other thread exists to read between them, and main
// reads nothing before the last of them. One store of the bytes they
// write, in their place, gives every later read the same values, and
// every execution of the program has a counterpart: the same one with
// the stores joined. Races are unchanged (the stores happen before every
// other thread's events). The others become no-ops (an assignment to a
// register nothing reads), so instruction numbers do not move.
//
// A group is joined only when another access, at a constant address,
// covers exactly its bytes with one size (2, 4 or 8, aligned), and the
// group's stores tile those bytes without overlap.
func mergeInitStores(t *spec.Test) {
	if len(t.Threads) == 0 {
		return
	}
	main := t.Threads[0]
	type piece struct {
		pc        int
		off, size int64
		val       int64
	}
	byObj := map[string][]piece{}
	end := 0
	for end < len(main.Code) {
		in := main.Code[end]
		switch in.(type) {
		case prog.Assign, prog.Label:
			// No event; no jump comes before (a jump ends the
			// prefix, and the unrolled code jumps only forward).
			end++
			continue
		}
		st, ok := in.(prog.Store)
		if !ok {
			break
		}
		a, okA := st.Addr.(prog.Const)
		v, okV := st.Val.(prog.Const)
		tags, n, _ := takeSizeAlign(st.Tags)
		if !okA || !a.V.IsAddr() || !okV || v.V.IsAddr() || n <= 0 || len(tags) != 1 || tags[0] != tagNA {
			break
		}
		byObj[a.V.Loc] = append(byObj[a.V.Loc], piece{pc: end, off: a.V.Int, size: n, val: v.V.Int})
		end++
	}
	if end == 0 {
		return
	}
	// The sizes the rest of the program gives constant addresses.
	wholes := map[string]map[int64]int64{} // object -> offset -> size
	for ti, th := range t.Threads {
		for pc, in := range th.Code {
			if ti == 0 && pc < end {
				continue
			}
			var addr prog.Expr
			var tags []string
			switch x := in.(type) {
			case prog.Load:
				addr, tags = x.Addr, x.Tags
			case prog.Store:
				addr, tags = x.Addr, x.Tags
			case prog.RMW:
				addr, tags = x.Addr, x.RTags
			default:
				continue
			}
			a, ok := addr.(prog.Const)
			if !ok || !a.V.IsAddr() {
				continue
			}
			_, n, _ := takeSizeAlign(tags)
			if n != 2 && n != 4 && n != 8 {
				continue
			}
			if wholes[a.V.Loc] == nil {
				wholes[a.V.Loc] = map[int64]int64{}
			}
			if old, seen := wholes[a.V.Loc][a.V.Int]; !seen || n > old {
				wholes[a.V.Loc][a.V.Int] = n
			}
		}
	}
	for obj, ps := range byObj {
		sort.Slice(ps, func(i, j int) bool { return ps[i].off < ps[j].off })
		for off, w := range wholes[obj] {
			if off%w != 0 {
				continue
			}
			var in []piece
			ok := true
			for _, p := range ps {
				if p.off+p.size <= off || p.off >= off+w {
					continue
				}
				if p.off < off || p.off+p.size > off+w || p.size >= w {
					ok = false
					break
				}
				in = append(in, p)
			}
			if !ok || len(in) < 2 {
				continue
			}
			at, v := off, uint64(0)
			for _, p := range in {
				if p.off != at {
					ok = false // a gap or an overlap
					break
				}
				v |= (uint64(p.val) & (uint64(1)<<(8*p.size) - 1)) << (8 * (p.off - off))
				at += p.size
			}
			if !ok || at != off+w {
				continue
			}
			last := in[len(in)-1]
			for _, p := range in[:len(in)-1] {
				main.Code[p.pc] = prog.Assign{Dst: "%initmerged", Val: prog.Int(0)}
			}
			main.Code[last.pc] = prog.Store{Addr: prog.Const{V: prog.Value{Loc: obj, Int: off}}, Val: prog.Int(signExtend(int64(v), w)),
				Tags: []string{tagNA, fmt.Sprintf("%s%d", sizeTagPrefix, w)}}
		}
	}
}
