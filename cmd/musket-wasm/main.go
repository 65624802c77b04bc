//go:build js && wasm

// Command musket-wasm is Musket's explicit engine for the playground's
// static site, compiled with GOOS=js GOARCH=wasm and run in a Web Worker
// (see internal/playground/web/src/worker.js). It defines musketRun
// (a playground.Request as JSON in, a playground.Response as JSON out),
// musketInfo and musketModel on the global object, then waits.
package main

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"syscall/js"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/playground"
)

func main() {
	// As in cmd/musket: the explicit engine's many small, short-lived
	// relations make collecting less often pay.
	debug.SetGCPercent(400)
	g := js.Global()
	g.Set("musketRun", js.FuncOf(func(_ js.Value, args []js.Value) any {
		var req playground.Request
		if len(args) != 1 {
			return `{"status":"error","exit":2,"output":"musketRun takes one request"}`
		}
		if err := json.Unmarshal([]byte(args[0].String()), &req); err != nil {
			return mustJSON(&playground.Response{Status: "error", Exit: 2, Output: "bad request: " + err.Error() + "\n"})
		}
		resp := run(&req)
		return mustJSON(resp)
	}))
	g.Set("musketInfo", js.FuncOf(func(js.Value, []js.Value) any { return mustJSON(playground.StaticInfo()) }))
	g.Set("musketModel", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 {
			return ""
		}
		data, err := cat.BuiltinSource(args[0].String())
		if err != nil {
			return ""
		}
		return string(data)
	}))
	select {}
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

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"status":"error","exit":2,"output":"cannot encode the answer"}`
	}
	return string(b)
}
