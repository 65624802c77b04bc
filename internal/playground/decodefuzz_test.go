package playground

import (
	"strings"
	"testing"
)

// FuzzDecodeRequest compares DecodeRequest with encoding/json on any
// text (sameDecode): same refusals, same requests, no panic.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"name":"a","test":"X86 SB\n","bound":2,"files":{"a.cat":"x"}}`,
		`{"unknown":[1,-2.5e3,"x",{"a":[]},[],true,false,null]}`, `{"test":"\ud800\u0041"}`,
		`{"bound":1e3}`, `{"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sameDecode(t, "fuzz", text)
	})
}
