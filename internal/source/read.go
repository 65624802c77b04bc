package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync/atomic"
)

// DefaultMaxInput is the largest input file read unless SetMaxInput says
// otherwise: far above any test, model or program written by hand or
// generated, far below what would exhaust memory.
const DefaultMaxInput = 64 << 20

var maxInput atomic.Int64

func init() { maxInput.Store(DefaultMaxInput) }

// SetMaxInput sets the largest input file read, in bytes (musket's
// -max-input); 0 or less means no limit.
func SetMaxInput(n int64) { maxInput.Store(n) }

// MaxInput returns the largest input file read (0: no limit).
func MaxInput() int64 { return max(maxInput.Load(), 0) }

// TooLargeError is an input file larger than the input limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than the input limit of %s (raise it with -max-input)", e.Path, sizeText(e.Limit))
}

// sizeText spells n bytes in the largest unit that is exact: a limit
// below a MiB printed in MiB read "0 MiB".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads the file at path as os.ReadFile does, but refuses a file
// larger than the input limit (a TooLargeError), reading no more than the
// limit of it: a device such as /dev/zero or a runaway generated file
// must not exhaust memory before it is found not to be an input.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, FileError(err)
	}
	defer f.Close()
	return ReadAll(path, f)
}

// fileError is an error of the system on a file, said as the other
// errors on a file are: "path: what is wrong" (fs.PathError says
// "open path: permission denied"). It unwraps to the system's error, so
// that errors.Is(err, fs.ErrNotExist) still holds.
type fileError struct{ err *fs.PathError }

func (e *fileError) Error() string { return e.err.Path + ": " + e.err.Err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// FileError rewords an fs.PathError (from opening or reading a file) as
// "path: what is wrong"; other errors are returned as they are.
func FileError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path != "" {
		return &fileError{pe}
	}
	return err
}

// ReadAll reads r (the contents of path) up to the input limit. A
// leading byte order mark is dropped (TrimBOM).
func ReadAll(path string, r io.Reader) ([]byte, error) {
	n := MaxInput()
	if n <= 0 {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, FileError(err)
		}
		return TrimBOM(data), nil
	}
	data, err := io.ReadAll(io.LimitReader(r, n+1))
	if err != nil {
		return nil, FileError(err)
	}
	if int64(len(data)) > n {
		return nil, &TooLargeError{Path: path, Limit: n}
	}
	return TrimBOM(data), nil
}

// utf8BOM is the byte order mark in UTF-8.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// TrimBOM drops a leading UTF-8 byte order mark, which some editors
// write at the start of a file: it is no part of the text. The litmus
// parser skipped it while the CAT, Cubicle and .pts parsers, the -expect
// CSV, file lists and JSON results refused it as a character, or (an
// -expect file) silently missed the first row (robust7). Positions then
// count from the first character after it, as an editor shows them.
func TrimBOM(b []byte) []byte {
	if len(b) >= len(utf8BOM) && b[0] == utf8BOM[0] && b[1] == utf8BOM[1] && b[2] == utf8BOM[2] {
		return b[len(utf8BOM):]
	}
	return b
}
