package cfront

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/result"
)

// TestKernelOnly: a program that takes a spin lock of musket/lkmm.h is
// refused by name under a model that gives spin locks no meaning (under
// sc the two increments under the lock "failed" before), and one that
// only uses the kernel's accesses and fences is still checked.
func TestKernelOnly(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		file, model string
		unsupported string // the error names it; "" checked normally
		want        Verdict
	}{
		{"lkmm_mp.c", "sc", "lkmm_mp.c:18: spin_lock is a Linux-kernel primitive", Unknown},
		{"lkmm_mp.c", "rc11", "spin_lock is a Linux-kernel primitive", Unknown},
		{"lkmm_once.c", "sc", "", Safe},
	} {
		r, err := Check(context.Background(), filepath.Join("testdata", c.file), CheckOptions{Bound: 2, Engine: "smt", Model: model(t, c.model), ModelName: c.model})
		if err != nil {
			t.Fatalf("%s %s: %v", c.file, c.model, err)
		}
		if c.unsupported != "" {
			if r.Result == nil || r.Result.Status != result.Unsupported || r.Result.Err == nil || !strings.Contains(r.Result.Err.Error(), c.unsupported) {
				t.Errorf("%s %s: %v %+v, want unsupported %q", c.file, c.model, r.Verdict, r.Result, c.unsupported)
			}
			continue
		}
		if r.Verdict != c.want {
			t.Errorf("%s %s: verdict %v, want %v", c.file, c.model, r.Verdict, c.want)
		}
	}
}
