package cfront

import (
	"fmt"

	"github.com/musket-verify/musket/internal/spec"
)

// CompileFor maps the C11 events of t to a hardware target.
func CompileFor(t *spec.Test, target string) (*spec.Test, error) {
	return nil, fmt.Errorf("target %s: not yet", target)
}
