package event

import (
	"fmt"

	"github.com/musket-verify/musket/internal/rel"
)

// Single-event read-modify-writes. A RISC-V AMO is one memory operation,
// both a load and a store (RVWMO), and herd7 gives it one event in R and
// W. The engines run it as a read and a write (prog.RMW.Single): the read
// reads from a write, the write has its place in co and its value, the
// final state is computed from them. The model is given the quotient of
// that execution in which each such pair is one event: a Fusion maps the
// engine's events to the model's.
//
// The image of a relation is the image of its pairs, less the pairs made
// of the two halves of one fused pair (po, rmw and iico_data from the read
// to its write, fr from the read to its own write): so rf into the read
// and out of the write, co of the write, fr from the read, the
// dependencies into and out of either become the fused event's, and the
// reflexive pairs of the read (id, loc, int, sm, ...) are its own. A
// candidate in which the read reads from its own write has no image (an
// event does not read from itself): the engines do not build it.

// Fusion maps the events of an execution (0..N-1) to the model's events
// (0..M-1), where each fused read and write pair is one event.
type Fusion struct {
	N, M int
	// To maps each event to its model event.
	To []int
	// Read and Write give, for each model event, the event it stands for
	// as a read (the fused pair's read) and as a write (its write); both
	// are the event itself for the events that are not fused.
	Read, Write []int
	// other is, for each event of a fused pair, the other half; -1 for the
	// events that are not fused.
	other []int
}

// NewFusion returns the fusion of the pairs (read, write) of n events, or
// nil when there is none. The read of a pair comes before its write.
func NewFusion(n int, pairs [][2]int) *Fusion {
	if len(pairs) == 0 {
		return nil
	}
	f := &Fusion{N: n, To: make([]int, n), other: make([]int, n)}
	for i := range f.other {
		f.other[i] = -1
	}
	for _, p := range pairs {
		f.other[p[0]], f.other[p[1]] = p[1], p[0]
	}
	for i := 0; i < n; i++ {
		if o := f.other[i]; o >= 0 && o < i {
			f.To[i] = f.To[o] // the write: its read's model event
			f.Write[f.To[i]] = i
			continue
		}
		f.To[i] = f.M
		f.Read = append(f.Read, i)
		f.Write = append(f.Write, i)
		f.M++
	}
	return f
}

// Other returns the other half of e's fused pair, or -1.
func (f *Fusion) Other(e int) int {
	if f == nil {
		return -1
	}
	return f.other[e]
}

// Set returns the image of s.
func (f *Fusion) Set(s rel.Set) rel.Set {
	out := rel.NewSet(f.M)
	var elems []int
	s.Each(func(e int) { elems = append(elems, f.To[e]) })
	if len(elems) == 0 {
		return out
	}
	return rel.SetOf(f.M, elems...)
}

// Rel returns the image of r, less the pairs within one fused pair.
func (f *Fusion) Rel(r rel.Rel) rel.Rel {
	b := rel.NewBuilder(f.M)
	r.Each(func(i, j int) {
		if i != j && f.other[i] == j {
			return
		}
		b.Add(f.To[i], f.To[j])
	})
	return b.Rel()
}

// Back returns the relation over the events that r, a relation over the
// model's events, stands for: each fused event is its write when write
// is set (co), its read otherwise.
func (f *Fusion) Back(r rel.Rel, write bool) rel.Rel {
	at := f.Read
	if write {
		at = f.Write
	}
	b := rel.NewBuilder(f.N)
	r.Each(func(i, j int) { b.Add(at[i], at[j]) })
	return b.Rel()
}

// Loc returns the location classes of the model's events.
func (f *Fusion) Loc(loc []int) []int {
	out := make([]int, f.M)
	for m, e := range f.Read {
		out[m] = loc[e]
	}
	return out
}

// FusedLabel is the label of a fused pair drawn as one event numbered
// id, as herd7 draws a RISC-V AMO (one read-modify-write event): "RMW",
// the tags of its accesses, its location, and the value it reads and the
// value it writes, "b: RMW.X.AMO[x]=0>1".
func FusedLabel(id int, r, w *Event) string {
	t := ""
	seen := map[string]bool{}
	for _, tags := range [][]string{r.Tags, w.Tags} {
		for _, tag := range tags {
			if tag != "IW" && !seen[tag] {
				seen[tag] = true
				t += "." + tag
			}
		}
	}
	return fmt.Sprintf("%s: RMW%s[%s]=%s>%s", eventName(id), t, r.Loc, r.Value, w.Value)
}
