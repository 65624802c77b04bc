package playground

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// jsonRequest is req's JSON text as JSON.stringify writes it (no HTML
// escapes), or with encoding/json's escapes of <, > and &.
func jsonRequest(t *testing.T, req *Request, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(req); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sameDecode checks that DecodeRequest reads text as encoding/json does.
func sameDecode(t *testing.T, what, text string) {
	t.Helper()
	var want Request
	wantErr := json.Unmarshal([]byte(text), &want)
	got, err := DecodeRequest(text)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: DecodeRequest error %v, encoding/json error %v\n%s", what, err, wantErr, text)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: DecodeRequest\n%#v\nencoding/json\n%#v\n%s", what, got, want, text)
	}
}

// TestDecodeRequest compares DecodeRequest with encoding/json: every
// field, the corpus' X86 tests as texts, strings of every escape and of
// characters outside the BMP, nulls, unknown keys of every kind of
// value, blanks, and bad texts (both must refuse them).
func TestDecodeRequest(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "MOV [x],$1", "\n", "\t", "\"", "\\", "/", "<&>", "é", "😀", "\u2028", "\x01", "\x7f", " ", "exists (0:EAX=0 /\\ 1:EAX=0)"}
	randStr := func() string {
		var b strings.Builder
		for range rng.Intn(8) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return b.String()
	}
	for n := range 2000 {
		req := &Request{Command: randStr(), Name: randStr(), Test: randStr(), Model: randStr(), Cat: randStr(), CatName: randStr(),
			Engine: randStr(), Explain: rng.Intn(2) == 0, Variant: randStr(), Bound: rng.Intn(5) - 1, Target: randStr(), Source: randStr(), Brief: rng.Intn(2) == 0}
		if rng.Intn(2) == 0 {
			req.Files = map[string]string{randStr(): randStr(), "x.cat": randStr()}
		}
		sameDecode(t, "random", jsonRequest(t, req, n%2 == 0))
	}
	files, _ := filepath.Glob(filepath.Join(testcorpus.Dir(t), "litmus", "X86", "*.litmus"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameDecode(t, f, jsonRequest(t, &Request{Name: filepath.Base(f), Test: string(src), Engine: "enum"}, false))
	}
	for _, text := range []string{
		`{}`, ` { } `, "{\n\"name\" :\t\"a\" ,\r\n\"test\":\"b\"}",
		`{"name":null,"explain":null,"bound":null,"files":null,"brief":true}`,
		`{"name":"a","name":"b"}`,
		`{"unknown":[1,-2.5e3,"x",{"a":[]},[],true,false,null],"name":"n","other":{"k":{"l":"m"}}}`,
		`{"test":"\u0041\u00e9\u20ac\ud83d\ude00\/\b\f\n\r\t"}`,
		`{"test":"\ud800"}`, `{"test":"\udc00x"}`, `{"test":"\ud800\u0041"}`, `{"test":"\ud800\ud800\udc00"}`,
		`{"bound":3}`, `{"bound":-1}`, `{"bound":0}`, `{"bound":2.5}`, `{"bound":1e3}`, `{"bound":-0}`, `{"bound":01}`, `{"bound":99999999999999999999}`,
		`{"x":-0.5e+10,"y":0,"z":1E-2}`, `{"x":-}`, `{"x":1.}`, `{"x":.5}`, `{"x":1e}`, `{"x":-01}`, `{"x":00}`, `{"files":{}}`, `{"files":{"a.cat":"x","b.cat":"y\n"}}`,
		// Bad texts.
		``, `{`, `{"name"}`, `{"name":}`, `{"name":"a",}`, `{"name":"a"} x`, `[]`, `"x"`, `{"name":1}`, `{"explain":"yes"}`,
		`{"bound":"2"}`, `{"files":[]}`, `{"files":{"a":1}}`, `{"name":"a` + "\x01" + `"}`, `{"name":"\x"}`, `{"name":"\u12"}`,
		`{"name":"abc`, `{"a":tru}`, `{"a":01x}`, `{name:"a"}`,
	} {
		sameDecode(t, "case", text)
	}
}
