package cat

// FlagNames lists the names of the flags a model may raise (`flag ... as
// name`), in the order of the source, each once; a flag without a name is
// left out. Statements under if, match, procedures and included files are
// looked at too: the list says what may be raised, not what will be.
func FlagNames(m *Model) []string {
	var names []string
	seen := map[string]bool{}
	var walk func([]Stmt)
	walk = func(stmts []Stmt) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *CheckStmt:
				if s.Kind == Flag && s.Test != nil && s.Test.Name != "" && !seen[s.Test.Name] {
					seen[s.Test.Name] = true
					names = append(names, s.Test.Name)
				}
			case *BlockStmt:
				walk(s.Stmts)
			case *ProcStmt:
				walk(s.Body)
			case *ForallStmt:
				walk(s.Body)
			case *IfStmt:
				walk(s.Then)
				walk(s.Else)
			case *MatchStmt:
				for _, c := range s.Clauses {
					walk(c.Body)
				}
				walk(s.Default)
			}
		}
	}
	walk(m.Syntax())
	return names
}
