//go:build !(js && wasm)

// Command musket-wasm is Musket's explicit engine for the playground's
// static site; it is built with GOOS=js GOARCH=wasm (see
// scripts/playground.sh). Built for another system it only says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "musket-wasm runs in a browser: build it with GOOS=js GOARCH=wasm (scripts/playground.sh builds the static site)")
	os.Exit(2)
}
