// Package arch describes each architecture Musket knows as one unit: its
// names (the herd7 header word and its aliases, the compilation target of
// .pts programs), its litmus dialect front-end (instructions and register
// syntax, package litmus), its default memory model, and its fences with
// their event tags. Every command reads the defaults from here, so that
// they agree: an architecture is described once.
//
// The registry (archlist.go) lists the architectures, one Register line
// each; the descriptor of an architecture is its own file (x86.go, ...).
// The direction of imports is arch -> litmus, event, and compile -> arch
// (a compiled test carries the header word of its target's
// architecture): the front-ends do not know their descriptor.
package arch

import (
	"sort"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/litmus"
)

// Arch is the descriptor of one architecture.
type Arch struct {
	// Name is the canonical header word of its litmus tests ("X86",
	// "PPC"), the spelling of its front-end's Arch().
	Name string
	// Aliases are other names of the architecture, matched without
	// regard to case like Name: the compilation target ("power"), the
	// manufacturer's name ("Power", "ARMv7", "RISC-V").
	Aliases []string
	// Frontend translates its litmus dialect (instructions, register
	// names).
	Frontend litmus.Frontend
	// Model is the built-in memory model a test or program of the
	// architecture is checked under when none is given.
	Model string
	// Target is the compilation target of .pts programs, "" when there
	// is none; package compile has its mappings.
	Target string
	// Fences are its fence instructions and the tags of their events.
	Fences []Fence
	// Doc says in a line what the architecture and its model are.
	Doc string
}

// Fence is a fence instruction and the tag its event carries (the name
// herd7's .cat files bind).
type Fence struct {
	Mnemonic string
	Tag      string
}

// Names lists the name and the aliases.
func (a *Arch) Names() []string {
	return append([]string{a.Name}, a.Aliases...)
}

// Tags lists the tags the events of the architecture may carry (its
// front-end's), sorted.
func (a *Arch) Tags() []string {
	tags := append([]string(nil), a.Frontend.Tags()...)
	sort.Strings(tags)
	return tags
}

// TagAliases lists the other names under which models know some tags of
// the architecture (Dat3M's lower-case fence names): the entries of
// event.TagAliases whose tag is one of the architecture's.
func (a *Arch) TagAliases() map[string]string {
	own := map[string]bool{}
	for _, t := range a.Frontend.Tags() {
		own[t] = true
	}
	out := map[string]string{}
	for alias, tag := range event.TagAliases {
		if own[tag] {
			out[alias] = tag
		}
	}
	return out
}
