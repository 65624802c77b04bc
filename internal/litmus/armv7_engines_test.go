package litmus_test

import (
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/litmus"
)

// TestARMArrayLitmus runs the ARM tests of testdata/arm under the
// built-in armv7 model with both engines; each file says why its verdict
// is the right one. An immediate offset on a location that is not an
// array is still refused by name.
func TestARMArrayLitmus(t *testing.T) {
	runEngineCases(t, "armv7", "ARM", "arm", 60*time.Second, []engineCase{
		{file: "ARRAY", ok: true, states: 1},
	})
	_, err := litmus.Parse("t.litmus", []byte("ARM T\n{ 0:R0=x }\nP0;\n  LDR R1, [R0,#4];\nexists (0:R1 = 2)\n"))
	if want := "t.litmus:4:3: unsupported ARM access with immediate offset #4"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("immediate offset outside an array: error %v, want %q", err, want)
	}
}
