package main

import (
	"fmt"
	"io"

	"github.com/musket-verify/musket/internal/cat"
)

func init() {
	register("models", "list the built-in memory models", runModels)
}

func runModels(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: musket models")
		return 2
	}
	for _, b := range cat.Builtins() {
		fmt.Fprintf(stdout, "%-8s %s\n", b.Name, b.Doc)
	}
	return 0
}
