package param

import "container/heap"

// queue holds the cubes waiting to be explored. Breadth-first search
// explores the cubes level by level and, inside a level, those with fewer
// processes first, then the smaller ones (fewer literals and events), in
// the order they were made; depth-first search takes the newest cube.
// (Cubicle puts the number of processes before the depth; on the corpus
// that finds the long traces of sc_swimming_pool.cub too late.)
//
// On systems without weak memory, a pre-image with more processes than
// its cube waits until the queue has no other cube left (Cubicle's
// default for its breadth-first search, its option -postpone 1): the
// cubes with as many processes go first, at any depth. On
// challenges_lynch_full.cub that finds the one-process trace of 16
// steps in 75 nodes. The pre-images of a guessed invariant (approx.go)
// are not postponed: a guess is checked by its pre-images, new processes
// included (postponed, three FLASH examples of the corpus took more than
// 8 s of CPU instead of 2-5 s; not postponed, they keep their node
// counts within 5 %).
type queue struct {
	dfs       bool
	fifo      bool // first in, first out (the BRAB mode, brab.go)
	items     []*Cube
	seq       int
	live      int     // cubes in the queue
	postponed []*Cube // see pushLater
}

// cubeKey is the exploration priority of a cube (smaller first).
func cubeKey(c *Cube) [3]int {
	return [3]int{c.Depth, len(c.Slots), len(c.Lits) + len(c.Nodes)}
}

func (q *queue) Len() int { return len(q.items) }

func (q *queue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	ka, kb := cubeKey(a), cubeKey(b)
	for k := range ka {
		if ka[k] != kb[k] {
			return ka[k] < kb[k]
		}
	}
	return a.seq < b.seq
}

func (q *queue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }

func (q *queue) Push(x any) { q.items = append(q.items, x.(*Cube)) }

func (q *queue) Pop() any {
	n := len(q.items) - 1
	c := q.items[n]
	q.items[n] = nil
	q.items = q.items[:n]
	return c
}

// push adds a cube.
func (q *queue) push(c *Cube) {
	q.seq++
	c.seq = q.seq
	q.live++
	if q.dfs || q.fifo {
		q.items = append(q.items, c)
		return
	}
	heap.Push(q, c)
}

// pushLater adds a cube that waits until the others are explored.
func (q *queue) pushLater(c *Cube) {
	q.live++
	q.postponed = append(q.postponed, c)
}

// pop removes the next cube, or returns nil.
func (q *queue) pop() *Cube {
	if len(q.items) == 0 && len(q.postponed) > 0 {
		q.live -= len(q.postponed)
		for _, c := range q.postponed {
			q.push(c)
		}
		clear(q.postponed)
		q.postponed = q.postponed[:0]
	}
	if len(q.items) == 0 {
		return nil
	}
	q.live--
	if q.dfs {
		return q.Pop().(*Cube)
	}
	if q.fifo {
		c := q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
		return c
	}
	return heap.Pop(q).(*Cube)
}
