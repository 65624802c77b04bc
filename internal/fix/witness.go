package fix

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// labelAccess reads the kind and location of an access event's label
// ("c: R.rx[flag0]=0").
var labelAccess = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]+: ([RW])[^\[]*\[([^\]]+)\]`) })

// witnessOf turns an engine's witness of the patched test t into the
// loop's, with each event's line in the input: lineOf maps a line of the
// patched text to the input's (0 for an inserted line).
func witnessOf(x *result.Execution, t *spec.Test, lineOf []int) *Witness {
	if x == nil {
		return nil
	}
	n := len(x.Events)
	if debug {
		for _, e := range x.Events {
			fmt.Fprintf(os.Stderr, "  raw %d T%d pc%d %s\n", e.ID, e.Thread, e.PC, e.Label)
		}
		fmt.Fprintf(os.Stderr, "  po %v\n  rf %v\n  co %v\n  fr %v\n", x.Po, x.Rf, x.Co, x.Fr)
	}
	idx := make(map[int]int, n)
	w := &Witness{Events: make([]WEvent, n), Reach: make([][]bool, n), Po: make([][]bool, n), raw: x}
	if pin, ok := enum.PinOf(x); ok {
		w.pin = &pin
	}
	for i, e := range x.Events {
		idx[e.ID] = i
		w.Events[i] = WEvent{Thread: e.Thread}
		w.Reach[i] = make([]bool, n)
		w.Po[i] = make([]bool, n)
		if e.Thread < 0 || e.Thread >= len(t.Threads) {
			continue
		}
		th := t.Threads[e.Thread]
		if e.PC < 0 || e.PC >= len(th.Pos) {
			continue
		}
		if l := th.Pos[e.PC].Line; l > 0 && l < len(lineOf) {
			w.Events[i].Line = lineOf[l]
		}
	}
	for _, es := range [][][2]int{x.Po, x.Rf, x.Co, x.Fr} {
		for _, p := range es {
			a, ok1 := idx[p[0]]
			b, ok2 := idx[p[1]]
			if ok1 && ok2 {
				w.Reach[a][b] = true
			}
		}
	}
	// A read with no rf edge read the initial value (an engine may leave
	// those edges out): its rf comes from the initial write and its fr
	// goes to every write of the location.
	kind := make([]string, n)
	loc := make([]string, n)
	for i, e := range x.Events {
		if m := labelAccess().FindStringSubmatch(e.Label); m != nil {
			kind[i], loc[i] = m[1], m[2]
			w.Events[i].Kind = m[1][0]
		}
		w.Events[i].Acq, w.Events[i].Rel = c11Strength(e.Label)
	}
	hasRf := make([]bool, n)
	for _, p := range x.Rf {
		if b, ok := idx[p[1]]; ok {
			hasRf[b] = true
		}
	}
	for r := 0; r < n; r++ {
		if kind[r] != "R" || hasRf[r] {
			continue
		}
		for v := 0; v < n; v++ {
			if kind[v] != "W" || loc[v] != loc[r] {
				continue
			}
			if x.Events[v].Thread < 0 {
				w.Reach[v][r] = true // rf from the initial write
			} else {
				w.Reach[r][v] = true // fr to every other write
			}
		}
	}
	for _, p := range x.Po {
		a, ok1 := idx[p[0]]
		b, ok2 := idx[p[1]]
		if ok1 && ok2 {
			w.Po[a][b] = true
		}
	}
	closure(w.Reach)
	closure(w.Po)
	return w
}

// closure makes r transitive (Floyd–Warshall: witnesses are small).
func closure(r [][]bool) {
	n := len(r)
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if !r[i][k] {
				continue
			}
			for j := 0; j < n; j++ {
				if r[k][j] {
					r[i][j] = true
				}
			}
		}
	}
}

// c11Strength reads, from a C11 event's label ("j: R.A.ACQ[flag]=1",
// "k: W.A.SC[x]=1", "f: F[REL]"), whether it has acquire semantics (a
// read or fence with acquire, acq_rel or seq_cst) and release semantics
// (a write or fence with release, acq_rel or seq_cst). A seq_cst read has
// no release semantics, a seq_cst write no acquire semantics; a consume
// read counts as neither (fewer barriers only widen race.go's windows).
func c11Strength(label string) (acq, rel bool) {
	i := strings.Index(label, ": ")
	if i < 0 {
		return false, false
	}
	body := label[i+2:]
	kind := byte(0)
	if body != "" {
		kind = body[0]
	}
	if kind == 'F' {
		if j := strings.IndexByte(body, '['); j >= 0 {
			body = strings.TrimSuffix(body[j+1:], "]")
		}
	} else if j := strings.IndexByte(body, '['); j >= 0 {
		body = body[:j]
	}
	for _, tag := range strings.Split(body, ".") {
		switch tag {
		case "ACQ":
			acq = acq || kind != 'W'
		case "REL":
			rel = rel || kind != 'R'
		case "ACQ_REL", "SC":
			acq = acq || kind != 'W'
			rel = rel || kind != 'R'
		}
	}
	return acq, rel
}
