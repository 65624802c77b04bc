package gen

import (
	"os"
	"strings"
	"testing"
)

// testText is the text of the generated test tt (a failure to write it
// ends the test).
func testText(t *testing.T, tt *Test) string {
	t.Helper()
	var b strings.Builder
	if err := tt.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// writeTestFile writes the generated test tt to path.
func writeTestFile(t *testing.T, tt *Test, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(testText(t, tt)), 0o644); err != nil {
		t.Fatal(err)
	}
}
