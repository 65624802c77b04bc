package cfront

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/result"
)

// TestAddressOperationUnsupported checks testdata/addr_mul.c, an address
// multiplied: the SMT engine finds the failing assertion, the graph and
// explicit engines report the operation as unsupported (they used to go
// on with 0, or drop the execution and say SAFE: issue #24).
func TestAddressOperationUnsupported(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		engine string
		want   Verdict
		msg    string // in the unsupported result's error
	}{
		{"smt", Violation, ""},
		{"graph", Unknown, "addr_mul.c:14: P0: operator * on address arr+4 and 3 is not supported by the graph engine"},
		{"enum", Unknown, "operator * on address arr+4 and 3 in an execution is not supported by the explicit engine"},
	} {
		r, err := Check(context.Background(), filepath.Join("testdata", "addr_mul.c"),
			CheckOptions{Bound: 2, Engine: c.engine, Model: model(t, "rc11"), ModelName: "rc11"})
		if err != nil {
			t.Fatalf("%s: %v", c.engine, err)
		}
		if r.Verdict != c.want {
			t.Errorf("%s: verdict %v (%v), want %v", c.engine, r.Verdict, r.Result.Err, c.want)
			continue
		}
		if c.msg != "" && (r.Result.Status != result.Unsupported || r.Result.Err == nil || !strings.Contains(r.Result.Err.Error(), c.msg)) {
			t.Errorf("%s: %s %v, want unsupported: %q", c.engine, r.Result.Status, r.Result.Err, c.msg)
		}
	}
}
