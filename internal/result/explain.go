package result

// Step is one edge of an explanation: the events From and To (indices
// into the execution's events) are related by the model's relation Rel.
type Step struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Rel  string `json:"rel"`
}

// Reason is why a model rejects one execution: the check that fails (its
// name, and its text when known) and, edge by edge, the cycle of an
// acyclic check, the reflexive path of an irreflexive one or the pair of
// an empty one. Steps is empty when the engine could not recompute them.
type Reason struct {
	Check string `json:"check"`
	Test  string `json:"test,omitempty"`
	Steps []Step `json:"steps,omitempty"`
	// Also, for a check on an intersection (empty rmw & (fre; coe)), are
	// the paths between the same two events in the other operands.
	Also [][]Step `json:"also,omitempty"`
}

// Rejected is a candidate execution that reaches the outcome in question
// and the reason the model rejects it.
type Rejected struct {
	Execution *Execution `json:"execution"`
	Reason    *Reason    `json:"reason"`
}

// Explanation says why the outcome of a test's condition is allowed or
// forbidden. Forbidden: every candidate execution that reaches the
// outcome is rejected by the model; Candidates counts them and Rejected
// lists the first of them with their reasons. Allowed: the witness
// (Result.Witness) is an execution the model accepts.
type Explanation struct {
	Forbidden  bool       `json:"forbidden"`
	Candidates int        `json:"candidates"`
	Rejected   []Rejected `json:"rejected,omitempty"`
}
