package param

// A System is a checked .cub file ready for the search: names resolved,
// formulas in disjunctive normal form over template literals.
//
// Templates use negative slot numbers for the parameters of a formula or
// transition: parameter k (0-based) is slot -(k+1); the variable of
// forall_other / exists_other is qvarSlot; the universal index of an
// array update "A[j] := case …" is uvarSlot. The node of the new event
// of a transition (and of the unsafe reads) is newNode.
type System struct {
	File       string
	Enums      []*Enum
	Globals    []*Global
	Trans      []*Trans
	Init       []Conj // universal parameters: slots -1, -2, ...
	InitArity  int
	Unsafe     []*Root
	Invariants []*Root
	Weak       bool // the system has weak variables or arrays
	// SharedSC: with weak memory, some transition reads or writes a
	// non-weak variable or another process's cell of a non-weak array
	// (sequentially consistent shared memory)
	SharedSC    bool
	Pinned      int32 // process constants #1..#Pinned appear in the file
	NumberProcs int
}

const (
	qvarSlot int32 = -100
	uvarSlot int32 = -101 // first universal index; the k-th is uvarSlot-k
	newNode  int32 = -1
)

func paramSlot(k int) int32 { return int32(-(k + 1)) }

// uvarIndex says which universal index of an update slot s is.
func uvarIndex(s int32) (int, bool) {
	k := int(uvarSlot - s)
	return k, k >= 0 && k < maxArity
}

// Enum is an enumerated type, or an abstract one (no constructors).
type Enum struct {
	Name  string
	Ctors []string
}

// Global is a variable, array or constant.
type Global struct {
	Name   string
	Pos    Pos
	Weak   bool
	Const  bool
	Arity  int
	Sort   Sort
	Assign bool // assigned by some transition
}

// Conj is a conjunction of a DNF: literals (not yet normalised), the
// fence() predicate, and the quantified parts.
type Conj struct {
	Lits    []Lit
	Fence   bool
	Foralls [][]Conj // forall_other k. DNF (k is qvarSlot)
	Exists  [][]Conj // exists_other k. DNF
}

// Root is an unsafe or invariant formula: a DNF over its parameters.
type Root struct {
	Index  int // 1-based, in declaration order
	Pos    Pos
	Params int
	DNF    []Conj
}

// Case is one branch of an update: when Cond (nil for the default
// branch) holds, the new value is Value (or any value if Nondet). Skip
// marks the branch added for a weak update without a default: the
// cell is not written at all (no write event; it keeps its value).
type Case struct {
	Cond   []Conj
	Value  Term
	Nondet bool
	Skip   bool
}

// Update is an assignment of a transition. Cells with Univ true are
// updated for every process (the index slots equal to uvarSlot).
type Update struct {
	Global int32
	NArgs  int
	Args   [maxArity]int32
	Univ   bool
	NUniv  int // number of distinct universal indices
	Cases  []Case
}

// updates reports whether t assigns global g.
func (t *Trans) updates(g int32) bool {
	for _, u := range t.Updates {
		if u.Global == g {
			return true
		}
	}
	return false
}

// Trans is a transition.
type Trans struct {
	Name       string
	Pos        Pos
	Params     []string
	Actor      int // parameter performing the weak accesses, or -1
	Guard      []Conj
	Updates    []Update
	ReadsWeak  bool
	WritesWeak bool
	Fence      bool // explicit fence() in every disjunct, or implicit
}
