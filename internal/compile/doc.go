// Package compile turns a program of the C11-like language of
// Dartagnan and Porthos (package
// pts: loads and stores tagged with a C11 memory order) into a program of
// a hardware architecture, and unrolls loops.
//
// Compile applies the compiler mappings of Table I of Ponce-de-León, Furbach, Heljanko, Meyer, "BMC with Memory Models as Modules"
// (FMCAD 2018; the LLVM
// 4.0 mappings for x86, Power and ARMv7) and the standard C11 mappings for
// AArch64 and RISC-V. Each mapping is one table, the variable mappings in
// compile.go, from (target, access kind, order) to a sequence of steps:
// fences and exactly one memory access. Compiled loads and stores carry
// only the architecture's tags (A on an AArch64 LDAR read, L on an STLR
// write, none elsewhere); fences carry the tag herd's CAT files bind:
//
//	x86      MFENCE                            (x86fences.cat)
//	Power    SYNC, LWSYNC                      (ppcfences.cat)
//	ARMv7    DMB.ISH                           (armfences.cat; see below)
//	AArch64  no fences; LDAR is A, STLR is L   (aarch64fences.cat)
//	RISC-V   Fence.rw.rw, Fence.r.rw, Fence.rw.w (riscv-defs.cat)
//
// ARMv7's "dmb ish" is tagged DMB.ISH only, as herd tags the event of a
// DMB ISH instruction: armfences.cat defines dmb.ish = fencerel(DMB.ISH)
// apart from dmb = fencerel(DMB), and arm.cat (herd's and Dat3M's) counts
// dmb.ish among its strong fences, so the barrier is a full one under
// those models without also claiming to be a DMB SY.
//
// Origin map. Porthos compares two compilations of one program event by
// event (that paper, Section IV), which the mappings allow because every
// access maps to exactly one memory access. CompileMap returns, with the
// compiled test, Origin[t][i]: the index in source thread t of the
// instruction that compiled instruction i comes from. Compiled.Access and
// AccessMap turn it into the one-to-one map between the memory accesses of
// two compilations.
//
// Unroll makes a program loop-free for the bounded engines; see Unroll for
// the shape of the result and the cut marker (label CutLabel, register
// BoundReg) that tells an engine a path needed more iterations than the
// bound.
package compile
