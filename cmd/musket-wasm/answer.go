package main

import (
	"context"

	"github.com/musket-verify/musket/internal/playground"
)

// This file is built for every system: the static site's worker answers
// a request through answer (export.go's musketCall), and the native
// build runs the same code over folders of tests (main_other.go), so
// that scripts/wasm-ratio.sh can time the worker's own work natively.

// answer appends to dst the JSON answer to the request whose JSON text is
// req: the request decoded (playground.DecodeRequest), run, and its
// answer encoded by hand (the same bytes as encoding/json's).
func answer(dst, req []byte) []byte {
	r, err := playground.DecodeRequest(string(req))
	if err != nil {
		return (&playground.Response{Status: "error", Exit: 2, Output: "bad request: " + err.Error() + "\n"}).AppendJSON(dst)
	}
	return run(&r).AppendJSON(dst)
}

// run answers one request: litmus tests only, with the explicit engine.
func run(req *playground.Request) *playground.Response {
	switch req.Command {
	case "", "litmus":
	default:
		return &playground.Response{Status: "error", Exit: 2, Output: "the static site runs litmus tests only; " + req.Command + " needs musket serve\n"}
	}
	if req.Engine != "" && req.Engine != "enum" {
		req.Engine = "enum"
	}
	return playground.RunLitmus(context.Background(), req, playground.Env{})
}
