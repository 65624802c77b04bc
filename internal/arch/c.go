package arch

// C is herd7's C dialect: C11 atomics, and with the Linux kernel's
// macros (-macros linux-kernel.def, or -conf linux-kernel.cfg, which
// also names the model) the Linux-kernel memory model's primitives. Its
// default model is C11; it has no compilation target.
var C = &Arch{
	Name:     "C",
	Frontend: frontend("C"),
	Model:    "c11",
	Fences: []Fence{{"atomic_thread_fence(memory_order_seq_cst)", "SC"}, {"atomic_thread_fence(memory_order_acq_rel)", "ACQ_REL"},
		{"atomic_thread_fence(memory_order_acquire)", "ACQ"}, {"atomic_thread_fence(memory_order_release)", "REL"}},
	Doc: "C (C11 atomics; the Linux kernel's primitives with -conf linux-kernel.cfg), model c11",
}
