package porthos

import (
	"fmt"
	"os"
	"strings"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
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

// modelTargets is the architecture of each built-in model that has one.
var modelTargets = map[string]string{
	"tso":     compile.X86,
	"power":   compile.Power,
	"armv7":   compile.ARMv7,
	"aarch64": compile.AArch64,
	"riscv":   compile.RISCV,
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
		if _, ok := compile.ArchWord(target); !ok {
			return Side{}, fmt.Errorf("%s: unknown target %q (want one of %v)", spec, target, compile.Targets())
		}
		if model == "" {
			return Side{}, fmt.Errorf("%s: no model after the target", spec)
		}
		s.Target, s.ModelName = target, model
	case isModelSpec(spec):
		s.ModelName = spec
		s.Target = modelTargets[spec]
	default:
		if _, ok := compile.ArchWord(spec); !ok {
			return Side{}, fmt.Errorf("%s: neither a model (%s) nor a target (%v)", spec, builtinNames(), compile.Targets())
		}
		def, ok := bmc.TargetModels[spec]
		if !ok {
			return Side{}, fmt.Errorf("%s: target without a built-in model", spec)
		}
		s.Target, s.ModelName = spec, def
	}
	m, err := bmc.LoadModel(s.ModelName, includeDirs)
	if err != nil {
		return Side{}, err
	}
	s.Model = m
	return s, nil
}

func isModelSpec(spec string) bool {
	if strings.HasSuffix(spec, ".cat") || strings.ContainsRune(spec, os.PathSeparator) {
		return true
	}
	for _, b := range cat.Builtins() {
		if b.Name == spec {
			return true
		}
	}
	return false
}

func builtinNames() string {
	var names []string
	for _, b := range cat.Builtins() {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
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
