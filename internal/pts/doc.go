// Package pts reads the C11-like program language of Ponce-de-León, Furbach,
// Heljanko, Meyer, "BMC with Memory Models as Modules" (FMCAD 2018, Fig. 3;
// the input of Dartagnan and Porthos)
// into a spec.Test whose threads are in the program IR of package prog.
//
// A program is a header of shared locations, a list of threads and a final
// condition:
//
//	{flag0, flag1, turn = 0}
//
//	thread t0 {
//	  flag0.store(_rx, 1);
//	  f1 = flag1.load(_acq);
//	  while (f1 == 1) and (t0 != 0) { f1 = flag1.load(_acq); }
//	  if (f1 != 0) then { r <- f1 + 1 } else { r = 2 }
//	}
//
//	exists turn = 10 /\ t0:r = 2
//
// Locations start at 0 unless the header gives a value. Threads are
// numbered 0, 1, … in order of appearance; Thread.Name is the source name.
// Statements are stores (x.store(ORDER, e), or Fig. 3's x = store(e,
// ORDER)), loads (r = x.load(ORDER), or r = load(x, ORDER)), local
// assignments (r <- e or r = e), while loops, if/else (with an optional
// "then") and blocks; ';' separates statements and may be left out.
// Memory orders are sc, rel, acq, con and rx, with or without a leading
// '_' (the C names relaxed, consume, acquire, release and seq_cst, with or
// without "memory_order_", are accepted too); a store takes rx, rel or sc,
// a load rx, con, acq or sc. Expressions are over integers and Booleans
// (true/True = 1, false/False = 0) with + - * / % == != < <= > >=, && ||
// ! (also spelled and, or, not) and parentheses. Comments are // and /* */.
//
// The final condition is "exists", "~exists" (or "not exists") or
// "forall" followed by a proposition over the final values of shared
// locations (x = 1, [x] = 1) and registers (t0:r = 1 by thread name, or
// 0:r = 1 by thread number), with = (or ==), !=, /\ (&&, and), \/ (||,
// or), ~ (!, not), true, false and parentheses.
//
// Translation. Loads and stores carry their memory order as their only tag
// (Tags: []string{"rx"}); package compile maps them to an architecture.
// Every other statement becomes local computation and jumps: "if c A else
// B" is
//
//	if !c goto ifN.else; A; goto ifN.end; ifN.else: B; ifN.end:
//
// and "while c B" is a guarded do-while loop whose only backward jump is
// the test at its bottom:
//
//	if !c goto whileN.end; whileN.body: B; if c goto whileN.body; whileN.end:
//
// (with the guard left out and the back jump unconditional when c is a
// constant true). Loops stay loops; compile.Unroll makes them acyclic.
// Thread.Pos[i] is the source position of Code[i]: the statement, or the
// while/if keyword for the jumps and labels of a loop or a conditional.
package pts
