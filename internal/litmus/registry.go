package litmus

import (
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"sort"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/prog"
)

// Cell is one non-empty cell of a thread's column in the thread table:
// its text (comments removed, blanks trimmed) and where the text starts.
type Cell struct {
	Text string
	Pos  prog.Pos
}

// Frontend translates the instructions of one architecture. The litmus
// skeleton (header, init, table, conditions) is common to every
// architecture; a front-end owns what differs: instructions and register
// names.
type Frontend interface {
	// Arch is the canonical name of the architecture ("X86").
	Arch() string
	// Thread translates the cells of thread id, top to bottom, into a
	// thread named "P<id>". Errors are positioned (an ErrorList).
	Thread(id int, cells []Cell) (*prog.Thread, error)
	// RegName returns the canonical spelling of a register name as
	// written in the init block, the locations or the condition, and
	// false when name is not a register of the architecture.
	RegName(name string) (string, bool)
	// Tags lists every event tag the front-end may put on the events of
	// the instructions it makes, so that an engine can bind each tag set
	// of a model even when a test has no such event.
	Tags() []string
}

// CodeFrontend is a Frontend whose dialect is not a column table (C:
// threads are functions "P0(int *x) { ... }"). The skeleton reads the
// header and the initial state, then hands the rest of the source to Code,
// which reads the threads and says where the part after them (locations,
// filter, the final condition) starts.
type CodeFrontend interface {
	Frontend
	// Code reads the threads from src[off:]. It returns them in order
	// (thread i is P<i>), and the offset where the rest of the test
	// starts. pos turns an offset of src into a position. Errors are
	// positioned (an ErrorList). init is the initial state: a register
	// it gives a value is a variable of its thread (herd7's C reads
	// "0:r4=y;" with r4 used in P0).
	Code(src []byte, off int, pos func(off int) prog.Pos, init []spec.InitEntry) ([]*prog.Thread, int, error)
}

var registry = struct {
	sync.RWMutex
	m map[string]Frontend
}{m: map[string]Frontend{}}

// Register makes f the front-end of the header word arch (matched
// without regard to case). Registering an arch twice replaces the first.
func Register(arch string, f Frontend) {
	registry.Lock()
	defer registry.Unlock()
	registry.m[strings.ToLower(arch)] = f
}

// Lookup returns the front-end of the header word arch (any case).
func Lookup(arch string) (Frontend, error) {
	registry.RLock()
	defer registry.RUnlock()
	if f, ok := registry.m[strings.ToLower(arch)]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unsupported architecture %s", clip(arch, 40))
}

// Archs lists the registered header words, sorted.
func Archs() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, 0, len(registry.m))
	for a, f := range registry.m {
		if strings.EqualFold(a, f.Arch()) {
			a = f.Arch()
		}
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}
