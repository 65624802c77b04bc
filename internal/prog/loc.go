package prog

import (
	"strconv"
	"strings"
)

// LocValue is the address a location name stands for: engines name the
// address of location x plus a non-zero offset k "x+k" (a chunk of x in a
// mixed-size test), so "x+4" is Value{Loc: "x", Int: 4} and "x" is the
// address of x.
func LocValue(name string) Value {
	if i := strings.LastIndexByte(name, '+'); i > 0 {
		if k, err := strconv.ParseInt(name[i+1:], 10, 64); err == nil {
			return Value{Loc: name[:i], Int: k}
		}
	}
	return AddrValue(name)
}
