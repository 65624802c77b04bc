//go:build js && wasm

// Command musket-wasm is Musket's explicit engine for the playground's
// static site, compiled with GOOS=js GOARCH=wasm and run in a Web Worker
// (see internal/playground/web/src/worker.js). It defines musketRun
// (a playground.Request, as a JavaScript object or its JSON text, in;
// a playground.Response as JSON out), musketBatch (many tests under one
// request's options), musketInfo and musketModel on the global object,
// then waits. It also exports musketIn, musketCall and musketOut
// (//go:wasmexport, see export.go): musketRun's request and answer
// through Go's memory, the way the worker runs each request.
package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"syscall/js"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/playground"
)

// out holds the last answer's JSON; runs come one at a time.
var out []byte

func main() {
	// When main begins, Go's runtime and every package's initialiser have
	// run: the worker reports the time (worker.js, boot.main).
	g := js.Global()
	g.Set("musketMainAt", g.Get("performance").Call("now"))
	// As in cmd/musket: the explicit engine's many small, short-lived
	// relations make collecting less often pay.
	debug.SetGCPercent(400)
	g.Set("musketRun", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 {
			return `{"status":"error","exit":2,"output":"musketRun takes one request"}`
		}
		req, err := requestOf(args[0])
		if err != nil {
			return string((&playground.Response{Status: "error", Exit: 2, Output: "bad request: " + err.Error() + "\n"}).AppendJSON(nil))
		}
		// The answer is encoded by hand (the same bytes as
		// encoding/json's), into a buffer kept between runs.
		out = run(&req).AppendJSON(out[:0])
		return string(out)
	}))
	// musketBatch(base, names, texts) answers base with each test in turn
	// (its file name and text: base's own are ignored), as one JSON array
	// of answers: the page's run over a folder (worker.js). One call and
	// one string for many tests, and base's fields read once, rather than
	// a musketRun per test.
	g.Set("musketBatch", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 {
			return `[]`
		}
		names, texts := args[1], args[2]
		if !isArray(names) || !isArray(texts) || names.Length() != texts.Length() {
			return `[]`
		}
		// A bad request is answered for each test, so that there is
		// one answer per test.
		base, err := requestOf(args[0])
		out = append(out[:0], '[')
		for i := range names.Length() {
			if i > 0 {
				out = append(out, ',')
			}
			if err != nil {
				out = (&playground.Response{Status: "error", Exit: 2, Output: "bad request: " + err.Error() + "\n"}).AppendJSON(out)
				continue
			}
			req := base
			req.Name, req.Test = names.Index(i).String(), texts.Index(i).String()
			out = run(&req).AppendJSON(out)
		}
		out = append(out, ']')
		return string(out)
	}))
	g.Set("musketInfo", js.FuncOf(func(js.Value, []js.Value) any { return string(playground.StaticInfo().AppendJSON(nil)) }))
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

func isArray(v js.Value) bool { return js.Global().Get("Array").Call("isArray", v).Bool() }

// requestOf reads a request from its JSON text (what the page's worker
// passes: one string crosses into WebAssembly, and
// playground.DecodeRequest reads it in one pass) or from a JavaScript
// object, field by field under the names of its JSON encoding: a call
// into JavaScript per field, each name's text decoded there and a
// finalizer set on each value read, about 3% of a warm run over the X86
// suite. Neither goes through encoding/json, which reads the test's
// text byte by byte twice, through reflection.
func requestOf(v js.Value) (playground.Request, error) {
	if v.Type() == js.TypeString {
		return playground.DecodeRequest(v.String())
	}
	return requestOfObject(v)
}

// requestOfObject reads a request from a JavaScript object. Out of line:
// the page and its worker send JSON text, and requestOf, which every
// request runs, stays small (the browser compiled its 3 KB again on the
// X86 suite's third pass when this path was inlined into it).
//
//go:noinline
func requestOfObject(v js.Value) (playground.Request, error) {
	var req playground.Request
	switch v.Type() {
	case js.TypeObject:
	default:
		return req, errors.New("a request is an object or its JSON text")
	}
	r := fieldReader{v: v}
	r.str("command", &req.Command)
	r.str("name", &req.Name)
	r.str("test", &req.Test)
	r.str("model", &req.Model)
	r.str("cat", &req.Cat)
	r.str("cat_name", &req.CatName)
	r.files("files", &req.Files)
	r.str("engine", &req.Engine)
	if x, ok := r.get("explain", js.TypeBoolean); ok {
		req.Explain = x.Bool()
	}
	r.str("variant", &req.Variant)
	if x, ok := r.get("bound", js.TypeNumber); ok {
		req.Bound = x.Int()
	}
	r.str("target", &req.Target)
	r.str("source", &req.Source)
	if x, ok := r.get("brief", js.TypeBoolean); ok {
		req.Brief = x.Bool()
	}
	return req, r.err
}

// fieldReader reads a request's fields from a JavaScript object and
// keeps the first error.
type fieldReader struct {
	v   js.Value
	err error
}

// get returns the field name when it is set and of type want.
func (r *fieldReader) get(name string, want js.Type) (js.Value, bool) {
	if r.err != nil {
		return js.Value{}, false
	}
	x := r.v.Get(name)
	if x.IsUndefined() || x.IsNull() {
		return x, false
	}
	if x.Type() != want {
		r.err = fmt.Errorf("%s: want a %s, not a %s", name, want, x.Type())
		return x, false
	}
	return x, true
}

func (r *fieldReader) str(name string, dst *string) {
	if x, ok := r.get(name, js.TypeString); ok {
		*dst = x.String()
	}
}

// files reads a map[string]string: the CAT files by name.
func (r *fieldReader) files(name string, dst *map[string]string) {
	x, ok := r.get(name, js.TypeObject)
	if !ok {
		return
	}
	keys := js.Global().Get("Object").Call("keys", x)
	m := map[string]string{}
	for k := range keys.Length() {
		key := keys.Index(k).String()
		val := x.Get(key)
		if val.Type() != js.TypeString {
			r.err = fmt.Errorf("%s[%q]: want a string, not a %s", name, key, val.Type())
			return
		}
		m[key] = val.String()
	}
	*dst = m
}
