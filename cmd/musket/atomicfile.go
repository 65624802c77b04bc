package main

import (
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/musket-verify/musket/cmd/musket/internal/earlysignal"
)

// atomicFile is an output file (-witness, -o, -dot, gen's tests) written
// under a temporary name beside it and renamed to its name when closed:
// a run stopped while it writes (a signal, earlysignal's grace) leaves
// the file as it was before, never half written.
type atomicFile struct {
	*os.File
	name string
}

// pendingTemps are the temporary files being written, removed when the
// process ends at a signal without returning (earlysignal.Exit).
var pendingTemps struct {
	sync.Mutex
	m map[string]bool
}

func init() {
	exit := earlysignal.Exit
	earlysignal.Exit = func(why string) {
		removePendingTemps()
		exit(why)
	}
}

// removePendingTemps removes the temporary files being written.
func removePendingTemps() {
	pendingTemps.Lock()
	defer pendingTemps.Unlock()
	for p := range pendingTemps.m {
		os.Remove(p)
		delete(pendingTemps.m, p)
	}
}

// createAtomic starts writing file name.
func createAtomic(name string) (*atomicFile, error) {
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		_, err := os.Create(name) // the error os.Create gives for a folder
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		// Named as the file asked for, not the temporary one.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	pendingTemps.Lock()
	if pendingTemps.m == nil {
		pendingTemps.m = map[string]bool{}
	}
	pendingTemps.m[f.Name()] = true
	pendingTemps.Unlock()
	return &atomicFile{File: f, name: name}, nil
}

// Close ends the writing and gives the file its name, readable by all
// (0644: os.Create's 0666 under the usual umask).
func (f *atomicFile) Close() error {
	err := f.File.Close()
	if err == nil {
		err = os.Chmod(f.File.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.name)
	}
	f.forget(err != nil)
	return err
}

// Abort ends the writing and leaves no file.
func (f *atomicFile) Abort() {
	f.File.Close()
	f.forget(true)
}

func (f *atomicFile) forget(remove bool) {
	if remove {
		os.Remove(f.File.Name())
	}
	pendingTemps.Lock()
	delete(pendingTemps.m, f.File.Name())
	pendingTemps.Unlock()
}

// writeFileAtomic is os.WriteFile through an atomicFile.
func writeFileAtomic(name string, data []byte) error {
	f, err := createAtomic(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}
