package cat

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// LoadText loads the model in files[name], a set of model files given as
// text (a playground's editors): `include "f.cat"` takes f.cat from files
// first, then from opts.IncludeDirs and opts.LibDirs (folders the caller
// chose, never the text), then from the built-in files. A name with a
// folder in it, or that climbs out of one, is refused: text from a client
// reads nothing else from the disk.
func LoadText(name string, files map[string][]byte, opts LoadOptions) (*Model, error) {
	opts.Files = files
	if opts.Bell != "" {
		return nil, fmt.Errorf("a bell file cannot be given with a model as text")
	}
	data, ok := files[name]
	if !ok {
		return nil, fmt.Errorf("no model file %q given", name)
	}
	opts.IncludeDirs = append(append([]string(nil), opts.IncludeDirs...), opts.LibDirs...)
	l := &loader{opts: opts}
	return l.load(&source{key: "text:" + name, name: name, data: data}, "")
}

// BuiltinSource returns the text of a built-in model or library file
// ("tso", "stdlib.cat"), for a user to read or edit.
func BuiltinSource(name string) ([]byte, error) {
	if !strings.HasSuffix(name, ".cat") && !strings.HasSuffix(name, ".bell") {
		name += ".cat"
	}
	if !isBuiltin(name) {
		return nil, fmt.Errorf("no built-in file %q", name)
	}
	return builtinFS.ReadFile("models/" + name)
}

// BuiltinFiles lists every built-in file a model may include by name.
func BuiltinFiles() []string {
	var out []string
	for _, n := range builtinNames() {
		out = append(out, n+".cat")
	}
	for n := range libraryFiles {
		out = append(out, n+".cat")
	}
	sort.Strings(out)
	return out
}

// findText is find for a model given as text (LoadOptions.Files).
func (l *loader) findText(name string) (*source, error) {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return nil, fmt.Errorf("cannot include %q: only a file given by name, or one of Musket's built-in files, may be included", name)
	}
	if data, ok := l.opts.Files[name]; ok {
		return &source{key: "text:" + name, name: name, data: data}, nil
	}
	for _, d := range l.opts.IncludeDirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return l.readFile(p, name)
		}
	}
	if isBuiltin(name) {
		return l.readBuiltin(name)
	}
	return nil, fmt.Errorf("cannot find included file %q (give it by name, or include one of the built-in files: %s)", name, strings.Join(BuiltinFiles(), ", "))
}
