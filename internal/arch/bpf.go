package arch

// BPF is the Linux kernel's eBPF as herd7 reads it. Its default model is
// bpf, the model of herd7's library file bpf.cat (built on the
// Linux-kernel memory model); BPF has no fence instruction: the atomics
// that return a value order as full fences.
var BPF = &Arch{
	Name:     "BPF",
	Frontend: frontend("BPF"),
	Model:    "bpf",
	Doc:      "eBPF, model bpf",
}
