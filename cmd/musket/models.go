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
	switch {
	case len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help"):
		fmt.Fprintln(stdout, "usage: musket models\n\nLists the built-in memory models (a name for -model) with what each one is.")
		return 0
	case len(args) > 0:
		fmt.Fprintf(stderr, "musket models: takes no flags or operands, not %q\n", args[0])
		fmt.Fprintln(stderr, "usage: musket models")
		return 2
	}
	for _, b := range cat.Builtins() {
		fmt.Fprintf(stdout, "%-8s %s\n", b.Name, b.Doc)
	}
	return 0
}
