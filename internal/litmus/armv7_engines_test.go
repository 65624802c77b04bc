package litmus_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestARMArrayLitmus runs the ARM tests of testdata/arm under the
// built-in armv7 model with both engines; each file says why its verdict
// is the right one. An immediate offset on a location that is not an
// array is still refused by name.
func TestARMArrayLitmus(t *testing.T) {
	m, name, err := driver.Load("armv7")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("ARM")
	for _, tc := range []struct {
		file   string
		ok     bool
		states int
	}{
		{"ARRAY", true, 1},
	} {
		path := filepath.Join("testdata", "arm", tc.file+".litmus")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(path, src)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		a := enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()})
		b := bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()})
		cancel()
		for _, r := range []*result.Result{a, b} {
			if r.Status != result.Done || r.Ok() != tc.ok || len(r.States) != tc.states {
				t.Errorf("%s: %s %v, ok %v with %d states; want ok %v with %d", tc.file, r.Status, r.Err, r.Ok(), len(r.States), tc.ok, tc.states)
			}
		}
	}
	_, err = litmus.Parse("t.litmus", []byte("ARM T\n{ 0:R0=x }\nP0;\n  LDR R1, [R0,#4];\nexists (0:R1 = 2)\n"))
	if want := "t.litmus:4:3: unsupported ARM access with immediate offset #4"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("immediate offset outside an array: error %v, want %q", err, want)
	}
}
