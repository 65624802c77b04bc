package event

import "github.com/musket-verify/musket/internal/rel"

// herd7's AArch64 pick dependencies (aarch64deps.cat, 7.58): a read
// reaches an address, a value written or a branch condition through the
// registers, where some step is a pick: a condition inside one
// instruction choosing the value (CSEL's flags, CAS's comparison; herd's
// iico_ctrl). They contain addr, data and ctrl. Musket's executions have
// no register events, so pick-basic-dep is its part between memory
// events (pick-addr-dep and pick-data-dep), and pick-dep joins the three.
// Relations between a read and events of its own instruction are left
// out, as herd's & ~same-instance does.

// PickRelNames are the pick relations every execution gives.
var PickRelNames = []string{"pick-addr-dep", "pick-data-dep", "pick-ctrl-dep", "pick-basic-dep", "pick-dep"}

// pickRels puts the pick relations of g into rels, which holds addr,
// data and ctrl already.
func pickRels(rels map[string]rel.Rel, n int, g *Graph) {
	addr := rels["addr"].Union(rel.RelOf(n, g.PickAddr...))
	data := rels["data"].Union(rel.RelOf(n, g.PickData...))
	ctrl := rels["ctrl"].Union(rel.RelOf(n, g.PickCtrl...))
	basic := addr.Union(data)
	putRel(rels, "pick-addr-dep", addr)
	putRel(rels, "pick-data-dep", data)
	putRel(rels, "pick-ctrl-dep", ctrl)
	putRel(rels, "pick-basic-dep", basic)
	putRel(rels, "pick-dep", basic.Union(ctrl))
}
