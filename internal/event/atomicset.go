package event

// The set X a model sees, and the relation amo.
//
// herd7 puts in its set X every access it marks atomic, and its
// semantics mark atomic the accesses of the exclusive pairs as well as
// those of the atomic read-modify-write instructions: Power's lwarx and
// stwcx. (PPCSem's read_mem_atomic and write_addr_conditional), AArch32's
// LDREX and STREX (ARMSem's read_mem_atomic; ARMArch_herd's one
// annotation is atomicity), MIPS's ll and sc (MIPSSem), AArch64's LDXR,
// LDAXR, STXR and STLXR (annotations X, XA, XL, which herd's AArch64
// is_atomic holds, in release 7.58 that Musket follows; later sources
// give the exclusives an annotation EX of their own, outside X) and
// RISC-V's lr and sc. herd's own ppc-checks.cat relies on it: its
// check scXX is "acyclic co | (po & (X * X))", vacuous if X lacked the
// exclusives.
//
// Musket's front ends tag the exclusive accesses EX (internal/litmus)
// and the accesses of atomic read-modify-writes X (RISC-V tags lr and sc
// both). So the set X of Static, and of the SMT engine's inputs
// (internal/bmc), is the events tagged X or EX, and every model reading
// X, herd's or Musket's, sees herd's X.
//
// amo stays what herd computes: the rmw pairs of the atomic
// read-modify-write instructions, the events tagged X alone (on RISC-V
// that already held lr and sc, so nothing moves there). Musket's
// built-in models that mean those instructions name amo, or their own
// tags (aarch64.cat, bpf.cat); those that mean the exclusives name EX or
// lxsx (armv7.cat, ppc-checks.cat); the ones that read X (riscv*.cat,
// tso.cat, pso.cat, bpf.cat, filters.cat) run on architectures whose X
// had the exclusives already or that have none; so no built-in answer
// changes. Where no event carries an exclusive tag the sets are what
// they were, bit for bit. The alias A (event.TagAliases, x86's locked
// accesses) follows X. The Go engines (internal/graph, internal/enum) read the
// events' tags, not this set, and keep their meaning.
