package prog

// The scope of a control dependency.
//
// In assembly a conditional branch makes every later event of its thread
// control-dependent (ctrl) on the reads its condition depends on: the
// hardware cannot tell where the two paths meet. In herd7's C semantics an
// if statement is a choice between its two branches, and only the events
// inside the branches depend on the condition; the statements after the
// if/else do not (a control dependency of an enclosing if still covers
// them when they are inside its branches).
//
// A front-end says so with Jump.Join: the conditional jump's dependency
// covers the events executed after it until control reaches the label
// Join names, where the branches meet. The engines keep, per path, the
// reads of the unscoped branches taken so far (a Jump without Join) and,
// per join label, the reads of the scoped branches still open; an event
// depends on all of them, and reaching label L closes every branch whose
// Join is L (each iteration of a loop whose exit is L, for instance).
// Code that ignores Join (Jump{Cond, Target} alone) is conservative: its
// dependencies cover more events, never fewer.
