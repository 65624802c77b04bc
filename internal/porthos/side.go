package porthos

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/arch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/driver"
)

// Side is one side of an inclusion: a compilation target and a memory
// model.
type Side struct {
	// Target is the compilation target of a .pts program ("" until
	// resolved: the model's architecture, or the other side's).
	Target string
	// ModelName is the model as the user named it (built-in name or .cat
	// path).
	ModelName string
	Model     *cat.Model
	Variants  map[string]bool
}

func (s Side) String() string {
	if s.Target == "" {
		return s.ModelName
	}
	return s.Target + ":" + s.ModelName
}

// ParseSide reads "target:model", "model" or "target" (the target's
// built-in model) and loads the model. Errors name the side.
func ParseSide(spec string, includeDirs []string) (Side, error) {
	if spec == "" {
		return Side{}, fmt.Errorf("empty side (want target:model or model)")
	}
	var s Side
	target, model, hasColon := strings.Cut(spec, ":")
	switch {
	case hasColon:
		if _, ok := arch.ByTarget(target); !ok {
			return Side{}, fmt.Errorf("%s: unknown target %q (want one of %v)", spec, target, arch.Targets())
		}
		if model == "" {
			return Side{}, fmt.Errorf("%s: no model after the target", spec)
		}
		s.Target, s.ModelName = target, model
	case driver.IsModel(spec):
		s.ModelName = spec
		// The architecture whose default the model is (SPARC shares
		// x86's TSO; the first registered wins), when it compiles.
		if a, ok := arch.ByModel(spec); ok {
			s.Target = a.Target
		}
	default:
		a, ok := arch.ByTarget(spec)
		if !ok {
			return Side{}, fmt.Errorf("%s: neither a model (%s) nor a target (%v)", spec, driver.BuiltinNames(), arch.Targets())
		}
		s.Target, s.ModelName = spec, a.Model
	}
	m, _, err := driver.Models{IncludeDirs: includeDirs}.Load(s.ModelName)
	if err != nil {
		return Side{}, err
	}
	s.Model = m
	return s, nil
}

// resolveTargets gives a side without a target the other side's, and
// x86 when neither has one.
func resolveTargets(src, tgt *Side) {
	switch {
	case src.Target == "" && tgt.Target == "":
		src.Target, tgt.Target = compile.X86, compile.X86
	case src.Target == "":
		src.Target = tgt.Target
	case tgt.Target == "":
		tgt.Target = src.Target
	}
}
