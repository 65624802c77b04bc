package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// Thread-specific data: POSIX's pthread_key_create, pthread_setspecific,
// pthread_getspecific, pthread_key_delete and C11's tss_create, tss_set,
// tss_get, tss_delete.
//
//   - A key is a number from 0, handed out by an acquire-release
//     fetch-and-add on the hidden location tssKeys (so two creations, in
//     any threads and loops, never get the same key; glibc's creation is
//     an atomic read-modify-write too, and acquire-release keeps it out
//     of the load buffering the graph engine leaves to SMT under
//     aarch64) and written into the key object.
//     A program that creates more than tssMax keys reaches an assertion
//     that says so, never a silent cut.
//   - Each thread has its own table of tssMax pointers, tss.tlsN (the
//     thread-local machinery of globalAddr: thread N's copy), initially
//     null as POSIX says; set and get are plain accesses to the slot the
//     key selects. Only the thread itself reaches its table (no pointer
//     to it is ever handed out), so these accesses never race.
//   - A destructor runs at a created thread's end for its non-null
//     value (tssdtor.go).
//   - Deleting a key does nothing (its number is not reused).

// tssMax is the number of keys a program may create.
const tssMax = 16

// tssKeys is the hidden location that numbers the keys.
const tssKeys = "%tsskeys"

func init() {
	for name, f := range map[string]callLowering{
		"pthread_key_create":  (*lowerer).keyCreate,
		"tss_create":          (*lowerer).keyCreate,
		"pthread_setspecific": (*lowerer).keySet,
		"tss_set":             (*lowerer).keySet,
		"pthread_getspecific": (*lowerer).keyGet,
		"tss_get":             (*lowerer).keyGet,
		"pthread_key_delete":  (*lowerer).noEvent,
		"tss_delete":          (*lowerer).noEvent,
		"pthread_detach":      (*lowerer).noEvent,
	} {
		knownCalls[name] = ownFirst(f)
	}
}

// keyCreate lowers pthread_key_create(key, destructor) and
// tss_create(key, destructor).
func (l *lowerer) keyCreate(cs *callSite) error {
	if len(cs.args) != 2 {
		return l.errAt(cs.pos, "%s takes two arguments", cs.name)
	}
	site := -1
	if _, ok := cs.args[1].(*constant.Null); !ok {
		if _, err := l.tssDtorSites(); err != nil {
			return l.errAt(cs.pos, "%v", err)
		}
		if site = l.tssDtorSiteOf(cs.in); site < 0 {
			return l.errAt(cs.pos, "%s with a destructor, called through a pointer (unsupported)", cs.name)
		}
	}
	keyp, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	if !l.locs[tssKeys] {
		if err := l.addObject(tssKeys, types.I32, nil, cs.pos); err != nil {
			return err
		}
	}
	b := cs.fr.b
	k := l.fresh("tsskey")
	tags := []string{tagA, "ACQ_REL", tagRMW, tagX}
	b.emit(prog.RMW{Dst: k, Addr: prog.Addr(tssKeys), New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)}, RTags: withSize(tags, types.I32), WTags: tags})
	ok := l.label("tssok")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: prog.Reg{Name: k}, Y: prog.Int(tssMax)}, Target: ok})
	l.failLimit(b, cs.pos, fmt.Sprintf("%s: more than %d thread-specific data keys (Musket's limit)", cs.name, tssMax))
	b.emit(prog.Label{Name: ok})
	b.emit(prog.Store{Addr: keyp, Val: prog.Reg{Name: k}, Tags: withSize([]string{tagNA}, types.I32)})
	if site >= 0 {
		if err := l.tssDtorRecord(b, site, prog.Reg{Name: k}, cs.pos); err != nil {
			return err
		}
	}
	cs.returnZero()
	return nil
}

// tssSlot is the address of the calling thread's slot for the key that
// argument 0 holds, its table declared on first use.
func (l *lowerer) tssSlot(cs *callSite) (prog.Expr, error) {
	key, err := l.arg(cs, 0)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%%tss.tls%d", l.curThread)
	if !l.locs[locName(name, 0)] {
		if err := l.addObject(name, types.NewArray(tssMax, types.I8Ptr), nil, cs.pos); err != nil {
			return nil, err
		}
	}
	// The key is an unsigned int: its bits, read unsigned.
	idx := umod2w(key, 32)
	return prog.Bin{Op: prog.OpAdd, X: prog.Addr(name), Y: prog.Bin{Op: prog.OpMul, X: idx, Y: prog.Int(8)}}, nil
}

// keySet lowers pthread_setspecific(key, value) and tss_set: a plain
// write of the value into the thread's slot; it returns 0 (thrd_success).
func (l *lowerer) keySet(cs *callSite) error {
	a, err := l.tssSlot(cs)
	if err != nil {
		return err
	}
	v, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Store{Addr: a, Val: v, Tags: withSize([]string{tagNA}, types.I8Ptr)})
	cs.returnZero()
	return nil
}

// keyGet lowers pthread_getspecific(key) and tss_get: a plain read of the
// thread's slot.
func (l *lowerer) keyGet(cs *callSite) error {
	a, err := l.tssSlot(cs)
	if err != nil {
		return err
	}
	dst := cs.dst
	if dst == "" {
		dst = l.fresh("tssget")
	}
	cs.fr.b.emit(prog.Load{Dst: dst, Addr: a, Tags: withSize([]string{tagNA}, types.I8Ptr)})
	return nil
}
