package cat

// SingleEventAMOs tells whether the model takes a read-modify-write that a
// front-end makes one memory operation (prog.RMW.Single: a RISC-V AMO) as
// one event in R and W, as herd7's models and Musket's do: their fr is the
// engine's, or (cos.cat, cos-opt.cat) defined as (rf^-1;co) \ id, which
// leaves out the pair of such an event with itself. A model that defines
// fr itself without leaving out the identity (Dat3M's stdlib.cat: fr =
// rf^-1;co | ...) would relate every such event to itself by fr, so that
// no execution with one would be coherent: it is written for an AMO of
// two events, a load and a store related by amo, as Dartagnan makes it,
// and the engines give it those.
func (m *Model) SingleEventAMOs() bool { return m == nil || !frKeepsIdentity(m.syntax) }

// frKeepsIdentity tells whether ss (includes expanded) bind fr other than
// as `e \ id` or `try fr with ...` (the engine's).
func frKeepsIdentity(ss []Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *BlockStmt:
			if frKeepsIdentity(s.Stmts) {
				return true
			}
		case *LetStmt:
			for _, b := range s.Binds {
				if b.Pat.Tuple || len(b.Pat.Names) != 1 || b.Pat.Names[0] != "fr" {
					continue
				}
				if t, ok := b.Value.(*TryExpr); ok {
					if x, ok := t.X.(*Ident); ok && x.Name == "fr" {
						continue // the engine's fr (Musket's stdlib.cat)
					}
				}
				if d, ok := b.Value.(*BinaryExpr); ok && d.Op == OpDiff {
					if id, ok := d.Y.(*Ident); ok && id.Name == "id" {
						continue
					}
				}
				return true
			}
		}
	}
	return false
}
