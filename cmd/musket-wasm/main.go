//go:build js && wasm

// Command musket-wasm is Musket's explicit engine for the playground's
// static site, compiled with GOOS=js GOARCH=wasm and run in a Web Worker
// (see internal/playground/web/src/worker.js). It defines musketRun
// (a playground.Request, as a JavaScript object or its JSON text, in;
// a playground.Response as JSON out), musketInfo and musketModel on the
// global object, then waits.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
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
		if len(args) != 1 {
			return `{"status":"error","exit":2,"output":"musketRun takes one request"}`
		}
		req, err := requestOf(args[0])
		if err != nil {
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

// requestOf reads a request from a JavaScript object, field by field
// under the names of its JSON encoding, or from its JSON text. The
// object saves encoding/json's decoding, which reads the test's text
// byte by byte twice and costs as much as a small test's parse in
// WebAssembly.
func requestOf(v js.Value) (playground.Request, error) {
	var req playground.Request
	switch v.Type() {
	case js.TypeString:
		err := json.Unmarshal([]byte(v.String()), &req)
		return req, err
	case js.TypeObject:
	default:
		return req, errors.New("a request is an object or its JSON text")
	}
	rv := reflect.ValueOf(&req).Elem()
	rt := rv.Type()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		x := v.Get(name)
		if x.IsUndefined() || x.IsNull() {
			continue
		}
		f := rv.Field(i)
		if want := jsTypes[f.Kind()]; x.Type() != want {
			return req, fmt.Errorf("%s: want a %s, not a %s", name, want, x.Type())
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString(x.String())
		case reflect.Bool:
			f.SetBool(x.Bool())
		case reflect.Int:
			f.SetInt(int64(x.Int()))
		case reflect.Map: // map[string]string: the CAT files by name
			keys := js.Global().Get("Object").Call("keys", x)
			m := map[string]string{}
			for k := range keys.Length() {
				key := keys.Index(k).String()
				val := x.Get(key)
				if val.Type() != js.TypeString {
					return req, fmt.Errorf("%s[%q]: want a string, not a %s", name, key, val.Type())
				}
				m[key] = val.String()
			}
			f.Set(reflect.ValueOf(m))
		}
	}
	return req, nil
}

// jsTypes are the JavaScript types of the kinds of a request's fields.
var jsTypes = map[reflect.Kind]js.Type{reflect.String: js.TypeString, reflect.Bool: js.TypeBoolean, reflect.Int: js.TypeNumber, reflect.Map: js.TypeObject}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `{"status":"error","exit":2,"output":"cannot encode the answer"}`
	}
	return string(b)
}
