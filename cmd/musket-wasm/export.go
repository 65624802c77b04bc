//go:build js && wasm

package main

import (
	"runtime"
	"unsafe"
)

// The page's worker answers a request through three exported functions
// (worker.js, runText) rather than through musketRun: it writes the
// request's JSON text into Go's memory (musketIn), calls musketCall, and
// reads the answer's JSON text from Go's memory (musketOut). No
// js.Value is made per call (each with a finalizer), and no event
// object and goroutine switch of syscall/js' callbacks: in Node, 3 ms of
// CPU per pass over the 359 X86 tests against 8-10 ms through musketRun
// for requests the engine refuses at once.
//
// Safety. JavaScript calls these only when Go is idle (between events:
// a worker runs one message at a time), and an exported function then
// runs on the goroutine that idles, which may switch to other goroutines
// and back as long as one of them is runnable; it must never wait for
// JavaScript (a timer, a callback), which could only come after it
// returns. The engine does neither: RunLitmus runs with no timeout
// (playground.Env{}) and starts no goroutine. The buffers are package
// variables, so the collector keeps them, and Go's collector moves no
// object, so their addresses hold until the next call.

// in holds the request's JSON text, written by JavaScript.
var in []byte

// musketIn returns the address of a buffer of n bytes in Go's memory for
// the next request's JSON text.
//
//go:wasmexport musketIn
func musketIn(n int32) int32 {
	if cap(in) < int(n) {
		in = make([]byte, n)
	}
	in = in[:n]
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(in))))
}

// musketCall answers the request whose JSON text is the first n bytes of
// musketIn's buffer, as musketRun does, and returns the length of the
// answer's JSON text, at musketOut's address.
//
//go:wasmexport musketCall
func musketCall(n int32) int32 {
	if n < 0 || int(n) > len(in) {
		n = 0 // an empty request: refused below
	}
	out = answer(out[:0], in[:n])
	// Let the runtime's own goroutines run (the collector's mark
	// workers, the sweeper) before going back to JavaScript. Through
	// syscall/js they run as the callback's goroutine parks; here
	// nothing else would give them the processor until the next event,
	// and the collector's cycles would stretch: the engine's memory grew
	// to 68 MB over 16 passes of the X86 suite in Node, against 23 MB
	// with this call or through musketRun. This goroutine stays
	// runnable, so the scheduler comes back to it and never idles.
	runtime.Gosched()
	return int32(len(out))
}

// musketOut returns the address of the last answer's JSON text.
//
//go:wasmexport musketOut
func musketOut() int32 {
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(out))))
}
