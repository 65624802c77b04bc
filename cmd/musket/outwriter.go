package main

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// outWriter is the standard output of the musket process: it keeps the
// first error of a write. Output that could not be written (a full disk,
// /dev/full, a file system gone) was lost with exit status 0: "musket
// litmus -json ... > run.json" on a full disk gave a truncated run.json
// and no word of it (robust7).
type outWriter struct {
	f   *os.File
	mu  sync.Mutex
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	if err != nil {
		o.mu.Lock()
		if o.err == nil {
			o.err = err
		}
		o.mu.Unlock()
	}
	return n, err
}

// finish returns the exit status of a run that ended with code: after an
// output that could not be written, says so on stderr, and the status
// is at least 2, as for an unwritable -witness file (an interruption
// stays 130).
func (o *outWriter) finish(code int, stderr io.Writer) int {
	o.mu.Lock()
	err := o.err
	o.mu.Unlock()
	if err == nil || code == exitInterrupted {
		return code
	}
	fmt.Fprintf(stderr, "musket: the output could not be written: %v\n", err)
	return max(code, exitBadInput)
}
