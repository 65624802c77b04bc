package litmus

import (
	"strconv"
	"strings"
)

// PC-relative branch targets.
//
// herd7 reads a branch target ".+8" or ".-4" as an offset in bytes from
// the branch, each instruction being 4 bytes (herdtools7's
// AArch64.ASL/BRANCH01, BRANCH03): ".+8" is the instruction after next.
// pcRelTargets gives each such target a label of its own, placed before
// the instruction it denotes (or at the end of the thread, for the
// instruction just past the last one), and makes the branch jump to it.

// pcRelName tells whether text is a PC-relative target, and its offset
// in bytes.
func pcRelName(text string) (int64, bool) {
	if len(text) < 3 || text[0] != '.' || text[1] != '+' && text[1] != '-' {
		return 0, false
	}
	n, err := strconv.ParseInt(text[2:], 10, 64)
	if err != nil {
		return 0, false
	}
	if text[1] == '-' {
		n = -n
	}
	return n, true
}

// pcRelTargets rewrites the PC-relative targets of ins (see above); an
// offset that is not a multiple of 4 or falls outside the thread is an
// error.
func (a *a64Thread) pcRelTargets(ins []armInstr) []armInstr {
	var index []int // index[k] is the position in ins of instruction k
	for i, in := range ins {
		if in.mn != "" {
			index = append(index, i)
		}
	}
	before := map[int]string{} // instruction number -> its label
	k := -1
	for i := range ins {
		if ins[i].mn == "" {
			continue
		}
		k++
		for j, op := range ins[i].ops {
			off, ok := pcRelName(op.name)
			if op.kind != armSym || !ok {
				continue
			}
			t := int64(k) + off/4
			if off%4 != 0 || t < 0 || t > int64(len(index)) {
				a.errorf(op.pos, "branch target %s is not an instruction of the thread", op.name)
				continue
			}
			name := ".pc" + strconv.FormatInt(t, 10)
			before[int(t)] = name
			ins[i].ops[j].name = name
		}
	}
	if len(before) == 0 {
		return ins
	}
	var out []armInstr
	k = 0
	for _, in := range ins {
		if in.mn != "" {
			if name, ok := before[k]; ok {
				out = append(out, armInstr{pos: in.pos, label: name})
			}
			k++
		}
		out = append(out, in)
	}
	if name, ok := before[len(index)]; ok {
		out = append(out, armInstr{label: name})
	}
	return out
}

// isPCRel tells whether the operand text is a PC-relative target.
func isPCRel(text string) bool {
	_, ok := pcRelName(strings.TrimSpace(text))
	return ok
}
