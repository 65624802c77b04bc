package arch

// The registry: one line per architecture. Adding an architecture is
// writing its front-end (package litmus, its own files), its descriptor
// (a file of this package), its compilation mappings when .pts programs
// compile to it (package compile), and one line here.
func init() {
	Register(X86)
	Register(X86_64)
	Register(PPC)
	Register(ARM)
	Register(AArch64)
	Register(RISCV)
	Register(SPARC)
	Register(MIPS)
	Register(BPF)
	Register(LISA)
	Register(C)
}
