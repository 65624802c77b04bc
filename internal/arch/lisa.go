package arch

// LISA is herd7's generic litmus language, in which herdtools7's
// catalogue/linux-lisa writes Linux-kernel tests. It has no built-in
// model: its tests are checked under the kernel's own (-conf
// linux-kernel.cfg), whose tags the front-end's annotations become.
var LISA = &Arch{
	Name:     "LISA",
	Frontend: frontend("LISA"),
	Doc:      "herd7's generic LISA (Linux-kernel tests), no built-in model: -conf linux-kernel.cfg",
}
