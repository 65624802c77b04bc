//go:build !(js && wasm)

// Command musket-wasm is Musket's explicit engine for the playground's
// static site; it is built with GOOS=js GOARCH=wasm (see
// scripts/playground.sh).
//
// Built for another system, `musket-wasm DIR...` answers every .litmus
// file of each DIR (in name order) as the static site's worker answers
// the page's Run: the request's JSON text ({name, test, engine: "enum"},
// as the page sends it) decoded, run and its answer encoded by the same
// code as in WebAssembly (answer), one JSON answer a line on standard
// output. It is the native side of scripts/wasm-ratio.sh's "same work"
// figure: the worker's work, natively, its start-up included. Without
// arguments it says how it is built.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "musket-wasm runs in a browser: build it with GOOS=js GOARCH=wasm (scripts/playground.sh builds the static site); natively, musket-wasm DIR... answers each .litmus file of DIR as the site's worker does")
		os.Exit(2)
	}
	// As in the WebAssembly build (main.go) and cmd/musket.
	debug.SetGCPercent(400)
	w := bufio.NewWriter(os.Stdout)
	var out []byte
	for _, dir := range os.Args[1:] {
		names, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
		if err == nil && len(names) == 0 {
			err = fmt.Errorf("no .litmus file")
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "musket-wasm: %s: %v\n", dir, err)
			os.Exit(2)
		}
		sort.Strings(names)
		for _, name := range names {
			text, err := os.ReadFile(name)
			if err != nil {
				fmt.Fprintf(os.Stderr, "musket-wasm: %v\n", err)
				os.Exit(2)
			}
			req, _ := json.Marshal(struct {
				Name   string `json:"name"`
				Test   string `json:"test"`
				Engine string `json:"engine"`
			}{filepath.Base(name), string(text), "enum"})
			out = answer(out[:0], req)
			w.Write(out)
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "musket-wasm: %v\n", err)
		os.Exit(2)
	}
}
