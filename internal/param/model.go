package param

import "math/bits"

// The reads of an unsafe or invariant formula happen at the end of the
// run: one final node per process (search.go, rootCubes), unordered
// among themselves. A final read of q may be fr-before a write of p
// only when that write is still in p's buffer at the end; every node
// with reads is therefore ghb-before the final nodes (a write that a
// ghb path leads from to a read is committed). One node for the final
// reads of every process, as before, ordered them against each write
// alike, and lost the runs where a process reads its own buffered write
// while another reads memory.
//
// This file is the weak memory model: how the events of a new transition
// instance are ordered by ghb against the events already in a cube, how a
// new write meets the unsatisfied reads (rffr), and the acyclicity and
// garbage collection of the ghb relation. It implements the TSO-like
// model of Cubicle-W and, with pso set, PSO: per-variable FIFO store
// buffers, so two writes of a process to different variables are not
// ordered unless a fence separates them.

// edgesFrom returns the positions of the old nodes of c that the new node
// n (performed by process actor) is ghb-before.
func edgesFrom(c *Cube, n *Node, actor int32, pso bool) uint64 {
	nf, _ := n.flags(actor)
	var out uint64
	for j, o := range c.Nodes {
		edge := false
		if of, ok := o.flags(actor); ok {
			// preserved program order: R->R, R->W, W->W (TSO; under PSO
			// only through a fence or, below, coherence); fence: W->fenced R
			if nf.Read && (of.Read || of.Write) {
				edge = true
			}
			if nf.Write && (of.Write && (!pso || of.FencedW) || of.Fenced && of.Read) {
				edge = true
			}
		}
		if nf.Read && o.Final {
			// the final reads come after every node with reads: a
			// ghb path from a write still buffered at the end to a
			// read node passes through an edge that commits it
			edge = true
		}
		if !edge {
			// co: new write before old writes of the same location,
			// unless the new node only writes and the old one is
			// another process's: a buffered write may reach memory
			// after the later writes of other processes;
			// fr: new read before old writes of the same location
			_, mine := o.flags(actor)
			for _, w := range o.Writes {
				for _, nw := range n.Writes {
					if nw.sameLoc(w) && (nf.Read || mine) {
						edge = true
					}
				}
				for _, nr := range n.Reads {
					if nr.sameLoc(w) {
						edge = true
					}
				}
			}
		}
		if edge {
			out |= 1 << uint(j)
		}
	}
	// coherence of a write with a later read of the same process (CoWR):
	// when the writer later read the location from another process's
	// write, its own write reached memory before that read (a fence, or
	// the read would have taken it from the buffer) and is co-before the
	// write it read. In the precise mode (refine.go: its soundness) a
	// write node keeps the reads of other processes that read from it
	// (Node.ReadBy; empty otherwise, and this loop adds nothing); without
	// them, Peterson's algorithm with
	// fences under TSO was UNSAFE with a trace where a process reads the
	// other's Turn, its own write to Turn reaching memory after that one.
	if nf.Write {
		for j, o := range c.Nodes {
			for _, r := range o.ReadBy {
				if r.Proc != actor {
					continue
				}
				for _, nw := range n.Writes {
					if nw.sameLoc(r) {
						out |= 1 << uint(j)
					}
				}
			}
		}
	}
	return out
}

// addEdge adds ghb(i, j) to the closed relation g.
func addEdge(g []uint64, i, j int) {
	add := uint64(1)<<uint(j) | g[j]
	bi := uint64(1) << uint(i)
	for x := range g {
		if x == i || g[x]&bi != 0 {
			g[x] |= add
		}
	}
}

// cyclic reports whether the closed relation g has a cycle.
func cyclic(g []uint64) bool {
	for i, s := range g {
		if s&(1<<uint(i)) != 0 {
			return true
		}
	}
	return false
}

// fenceOldReads marks the reads of actor in every node as fenced: a
// fence() of a transition without weak access orders the earlier writes
// of actor before its later reads.
// Under PSO the fence also orders those writes before the later writes.
func fenceOldReads(c *Cube, actor int32, pso bool) {
	for i, o := range c.Nodes {
		f, ok := o.flags(actor)
		if !ok {
			continue
		}
		r := f.Read && !f.Fenced
		w := pso && f.Write && !f.FencedW
		if r || w {
			o = o.clone()
			f.Fenced = f.Fenced || f.Read
			f.FencedW = f.FencedW || pso && f.Write
			o.setFlags(f)
			c.Nodes[i] = o
		}
	}
}

// rffrChoice is an old node with unsatisfied reads compatible with a
// write of the new node (a read of the same location).
type rffrChoice struct {
	node  int  // position of the old node
	other bool // some compatible read is by another process
}

// rffrPick is one way the writes of the new node meet the compatible
// reads of one old node:
//   - fr: the other processes' reads read from a write co-before the new
//     one (the read node is ghb-before the new write); the writer's own
//     reads read from the new write;
//   - otherwise each compatible read reads from the new write (rf) or,
//     if its bit in late is set, from a write co-after it that an
//     earlier transition makes and that reaches memory later (the new
//     write is then ghb-before the read node, and the read stays
//     unsatisfied). A read of another process always makes the new
//     write ghb-before its node (rfe, or co;rfe).
//
// Late sources exist only when a write can reach memory after a write
// that a later transition makes: a transition's order is then fixed by
// something else than the weak memory, namely sequentially consistent
// shared variables (a process learns of another's transition while that
// process's write is still buffered), or PSO (a process reads a later
// write of another process whose earlier write to another variable is
// still buffered). Under TSO without shared sequentially consistent
// variables every run has an order of its transitions in which a write
// made earlier is co-before the writes that later transitions of other
// processes make, unless they are unordered (Conchon, Declerck, Zaïdi,
// "Cubicle-W"), and the two choices suffice.
type rffrPick struct {
	fr   bool
	late uint64 // bit i: old.Reads[i] reads from a later write
}

// maxLateReads bounds the compatible reads of a node that may be late
// (2^k choices each).
const maxLateReads = 6

// rffrOptions lists, for each rffr node, its picks: fr first (if another
// process reads), then rf, then the late subsets.
func (e *engine) rffrOptions(c *Cube, n *Node, rffr []rffrChoice) [][]rffrPick {
	late := e.sys.SharedSC || e.pso()
	out := make([][]rffrPick, len(rffr))
	for k, r := range rffr {
		var opts []rffrPick
		if r.other {
			opts = append(opts, rffrPick{fr: true})
		}
		opts = append(opts, rffrPick{})
		if late {
			var compat []int
			for i, rd := range c.Nodes[r.node].Reads {
				if writesLoc(n, rd) && len(compat) < maxLateReads {
					compat = append(compat, i)
				}
			}
			for m := 1; m < 1<<uint(len(compat)); m++ {
				var bits uint64
				for b, i := range compat {
					if m&(1<<uint(b)) != 0 {
						bits |= 1 << uint(i)
					}
				}
				opts = append(opts, rffrPick{late: bits})
			}
		}
		out[k] = opts
	}
	return out
}

// writesLoc reports whether n writes the location of a.
func writesLoc(n *Node, a Access) bool {
	for _, w := range n.Writes {
		if w.sameLoc(a) {
			return true
		}
	}
	return false
}

// initReadsOK reports whether the unsatisfied reads of c can read the
// initial values: no write to a read's location may be ghb-before it
// (the initial value is co-before every write).
func initReadsOK(c *Cube) bool {
	for k, n := range c.Nodes {
		for _, rd := range n.Reads {
			for u, o := range c.Nodes {
				if u != k && c.GHB[u]&(1<<uint(k)) != 0 && writesLoc(o, rd) {
					return false
				}
			}
		}
	}
	return true
}

// rffrNodes lists the old nodes with unsatisfied reads compatible with a
// write of n.
func rffrNodes(c *Cube, n *Node, actor int32) []rffrChoice {
	var out []rffrChoice
	for j, o := range c.Nodes {
		found, other := false, false
		for _, r := range o.Reads {
			for _, w := range n.Writes {
				if r.sameLoc(w) {
					found = true
					if r.Proc != actor {
						other = true
					}
				}
			}
		}
		if found {
			out = append(out, rffrChoice{node: j, other: other})
		}
	}
	return out
}

// gc drops the nodes that cannot take part in a future ghb cycle: every
// future edge from an old node to a new one starts at an unsatisfied
// read, so a node from which no node with unsatisfied reads is reachable
// is irrelevant.
func gc(c *Cube) {
	if len(c.Nodes) == 0 {
		return
	}
	var unsat uint64
	for i, n := range c.Nodes {
		if len(n.Reads) > 0 {
			unsat |= 1 << uint(i)
		}
	}
	var keep uint64
	for i := range c.Nodes {
		if unsat&(1<<uint(i)) != 0 || c.GHB[i]&unsat != 0 {
			keep |= 1 << uint(i)
		}
	}
	if bits.OnesCount64(keep) == len(c.Nodes) {
		return
	}
	var nodes []*Node
	var pos []int
	for i, n := range c.Nodes {
		if keep&(1<<uint(i)) != 0 {
			nodes = append(nodes, n)
			pos = append(pos, i)
		}
	}
	g := make([]uint64, len(nodes))
	for a, i := range pos {
		for b, j := range pos {
			if c.GHB[i]&(1<<uint(j)) != 0 {
				g[a] |= 1 << uint(b)
			}
		}
	}
	c.Nodes, c.GHB = nodes, g
}
