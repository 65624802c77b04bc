package cat

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	srcfile "github.com/musket-verify/musket/internal/source"
)

//go:embed models/*.cat models/*.bell
var builtinFS embed.FS

const builtinPrefix = "builtin:"

// LoadOptions are the options of Load.
type LoadOptions struct {
	IncludeDirs []string // folders searched for included files (-I), after the including file's folder
	// Bell is a .bell file (herd7's -bell) read before the model, after
	// the standard library: its definitions (enum, instructions, lets,
	// flags) are visible in the model. A bell that cannot be read (e.g. a
	// dangling link) is looked for among the built-in files by its name.
	Bell string
	// LibDirs are herd7's library folders (-set-libdir): a bare model
	// name ("x86tso.cat") is looked for there before it is answered by a
	// built-in model (see ResolveModel), and included files after
	// IncludeDirs.
	LibDirs []string
	// Files, when not nil, are model files given as text by name (see
	// LoadText): included names are looked up there first, and no file
	// outside it is read from the disk except through IncludeDirs and
	// LibDirs; an absolute path or a name with a folder is refused.
	Files map[string][]byte
}

// Builtin describes a model embedded in the binary.
type Builtin struct {
	Name string // the name LoadBuiltin takes: "sc", "tso"
	Doc  string // one line saying what it is
}

// Load reads, parses and compiles the model in the file path.
//
// `include "f.cat"` is searched in the including file's folder, then in
// each IncludeDirs entry, then among the built-in files. As herd7 does,
// stdlib.cat is loaded before the model: the one found by the same rule
// from the model's folder, else Musket's own. A file that runs checks or
// choices is included once: an include of a file already included on
// every path to it is skipped. A file that only binds names is read again,
// so that its definitions see the names as they are there (as herd7 reads
// an include). An include cycle is an error.
func Load(path string, opts LoadOptions) (*Model, error) {
	l := &loader{opts: opts}
	main, err := l.readFile(path, path)
	if err != nil {
		return nil, err
	}
	return l.load(main, filepath.Dir(main.key))
}

// readBell reads the bell file of the options. A bell that the user names
// and that cannot be read (a missing file, a link to a missing file) is an
// error naming it, never replaced silently. Only a bare name that is no
// file at all ("linux-kernel.bell") selects the built-in bell of that name,
// as -model takes a built-in model by name.
func (l *loader) readBell() (*source, error) {
	name := l.opts.Bell
	if _, statErr := os.Stat(name); os.IsNotExist(statErr) && !strings.ContainsAny(name, `/\`) && isBuiltin(name) {
		return l.readBuiltin(name)
	}
	src, err := l.readFile(name, name)
	if err != nil {
		return nil, fmt.Errorf("bell file %s: %w", name, err)
	}
	if target, dangling := linkText(src.data); dangling {
		return nil, fmt.Errorf("bell file %s: a link to a missing file (%s)", name, target)
	}
	return src, nil
}

// LoadBuiltin loads one of the built-in models by name ("sc", "tso").
func LoadBuiltin(name string) (*Model, error) {
	return LoadBuiltinWith(name, LoadOptions{})
}

// LoadBuiltinWith loads a built-in model with options (a bell file).
func LoadBuiltinWith(name string, opts LoadOptions) (*Model, error) {
	name = strings.TrimSuffix(name, ".cat")
	if libraryFiles[name] || !isBuiltin(name+".cat") {
		return nil, fmt.Errorf("no built-in model %q (have %s)", name, strings.Join(builtinNames(), ", "))
	}
	l := &loader{opts: opts}
	main, err := l.readBuiltin(name + ".cat")
	if err != nil {
		return nil, err
	}
	return l.load(main, "")
}

// Builtins lists the built-in models.
func Builtins() []Builtin {
	var out []Builtin
	for _, name := range builtinNames() {
		b := Builtin{Name: name}
		if data, err := builtinFS.ReadFile("models/" + name + ".cat"); err == nil {
			if f, err := ParseFile(name+".cat", data); err == nil {
				b.Doc = f.Title
			}
		}
		out = append(out, b)
	}
	return out
}

// libraryFiles are the built-in files that models include rather than
// models of their own: the standard library, and our versions of herd7's
// library files that the Linux kernel's model and herd7's own models
// include (so that a model written for herd7 loads with no -set-libdir,
// in the playground too).
var libraryFiles = map[string]bool{"stdlib": true, "cross": true, "cos-opt": true,
	"cos": true, "filters": true, "fences": true, "x86fences": true, "ppcfences": true, "armfences": true,
	"ppo": true, "ppc-checks": true, "cos-no-opt": true, "cos-ok-opt": true, "mipsfences": true,
	"aarch64fences": true, "aarch64loc": true, "aarch64show": true, "aarch64memattrs": true,
	"aarch64bbm": true, "aarch64util": true, "aarch64deps": true, "aarch64hwreqs": true,
	"enumerations": true, "riscv-defs": true, "riscv-tso-defs": true, "musket-riscv-common": true,
	"cosllh": true, "uniproccat": true, "prettycat": true}

// builtinNames are the names of the built-in models.
func builtinNames() []string {
	entries, _ := fs.ReadDir(builtinFS, "models")
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".cat") {
			continue
		}
		n := strings.TrimSuffix(e.Name(), ".cat")
		if !libraryFiles[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func isBuiltin(name string) bool {
	if strings.Contains(name, "/") || strings.Contains(name, "\\") {
		return false
	}
	_, err := fs.Stat(builtinFS, "models/"+name)
	return err == nil
}

// source is one file to parse: key identifies it (its absolute path, or
// builtin:NAME), dir is the folder its includes start from ("" for a
// built-in file).
type source struct {
	key  string
	name string // the name used in positions
	dir  string
	data []byte
}

type loader struct {
	opts  LoadOptions
	errs  ErrorList
	chain []string // the include chain, for cycles
}

func (l *loader) load(main *source, dir string) (*Model, error) {
	mainFile, err := ParseFile(main.name, main.data)
	if err != nil {
		return nil, err
	}
	keepExecutionDeps(mainFile)
	included := map[string]bool{main.key: true}
	var stmts []Stmt
	// The implicit standard library.
	std, err := l.find("stdlib.cat", dir)
	if err == nil && std.key != main.key {
		included[std.key] = true
		if f, perr := ParseFile(std.name, std.data); perr != nil {
			l.addErr(perr)
		} else {
			l.chain = []string{std.key}
			body, inc := l.expand(f.Stmts, std.dir, included)
			included = inc
			stmts = append(stmts, &BlockStmt{File: std.name, Stmts: body})
		}
	}
	if l.opts.Bell != "" {
		bell, err := l.readBell()
		if err != nil {
			return nil, err
		}
		f, err := ParseFile(bell.name, bell.data)
		if err != nil {
			return nil, err
		}
		included[bell.key] = true
		l.chain = []string{bell.key}
		var body []Stmt
		body, included = l.expand(f.Stmts, bell.dir, included)
		stmts = append(stmts, &BlockStmt{File: bell.name, Stmts: body})
	}
	l.chain = []string{main.key}
	body, _ := l.expand(mainFile.Stmts, main.dir, included)
	stmts = append(stmts, &BlockStmt{File: main.name, Stmts: body})
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	m, err := compileModel(mainFile.Title, main.key, stmts)
	if m != nil {
		m.syntax = stmts
	}
	return m, err
}

func (l *loader) addErr(err error) {
	var list ErrorList
	if errors.As(err, &list) {
		l.errs = append(l.errs, list...)
		return
	}
	l.errs = append(l.errs, &Error{Msg: err.Error()})
}

// expand replaces the includes of stmts by the included files' statements.
// included holds the files included on every path to this point; the
// returned set is the one after stmts.
func (l *loader) expand(stmts []Stmt, dir string, included map[string]bool) ([]Stmt, map[string]bool) {
	out := make([]Stmt, 0, len(stmts))
	for _, st := range stmts {
		switch st := st.(type) {
		case *IncludeStmt:
			src, err := l.find(st.Path, dir)
			if err != nil {
				l.errs.Add(st.At, err.Error())
				continue
			}
			if i := indexOf(l.chain, src.key); i >= 0 {
				cycle := append(append([]string(nil), l.chain[i:]...), src.key)
				for k := range cycle {
					cycle[k] = filepath.Base(strings.TrimPrefix(cycle[k], builtinPrefix))
				}
				l.errs.Add(st.At, "include cycle: "+strings.Join(cycle, " -> "))
				continue
			}
			again := included[src.key]
			included[src.key] = true
			f, err := ParseFile(src.name, src.data)
			if err != nil {
				l.addErr(err)
				continue
			}
			if again && !definitionsOnly(f) {
				continue
			}
			keepExecutionDeps(f)
			l.chain = append(l.chain, src.key)
			var body []Stmt
			body, included = l.expand(f.Stmts, src.dir, included)
			l.chain = l.chain[:len(l.chain)-1]
			out = append(out, &BlockStmt{At: st.At, File: src.name, Stmts: body})
		case *IfStmt:
			var inThen, inElse map[string]bool
			st.Then, inThen = l.expand(st.Then, dir, maps.Clone(included))
			st.Else, inElse = l.expand(st.Else, dir, maps.Clone(included))
			included = intersect(inThen, inElse)
			out = append(out, st)
		case *MatchStmt:
			var all []map[string]bool
			for i := range st.Clauses {
				var in map[string]bool
				st.Clauses[i].Body, in = l.expand(st.Clauses[i].Body, dir, maps.Clone(included))
				all = append(all, in)
			}
			var in map[string]bool
			st.Default, in = l.expand(st.Default, dir, maps.Clone(included))
			all = append(all, in)
			included = all[0]
			for _, x := range all[1:] {
				included = intersect(included, x)
			}
			out = append(out, st)
		case *ProcStmt:
			st.Body, _ = l.expand(st.Body, dir, maps.Clone(included))
			out = append(out, st)
		case *ForallStmt:
			st.Body, _ = l.expand(st.Body, dir, maps.Clone(included))
			out = append(out, st)
		default:
			out = append(out, st)
		}
	}
	return out, included
}

// definitionsOnly tells whether a file only binds names (lets,
// procedures, shows, includes): reading it again rebinds its names
// against the current ones, as herd7's textual include does, and runs
// nothing twice. herd7's cos-opt.cat includes cross.cat again after
// lock.cat has added LKW to W, so that generate_cos orders them.
func definitionsOnly(f *File) bool {
	for _, st := range f.Stmts {
		switch st.(type) {
		case *LetStmt, *ProcStmt, *ShowStmt, *IncludeStmt:
		default:
			return false
		}
	}
	return true
}

func intersect(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		if b[k] {
			out[k] = true
		}
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// find locates an included file: in dir, then the include folders, then
// the built-in files.
func (l *loader) find(name, dir string) (*source, error) {
	if l.opts.Files != nil {
		return l.findText(name)
	}
	if filepath.IsAbs(name) {
		return l.readFile(name, name)
	}
	var dirs []string
	if dir != "" {
		dirs = append(dirs, dir)
	}
	dirs = append(dirs, l.opts.IncludeDirs...)
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return l.readFile(p, p)
		}
	}
	if isBuiltin(name) {
		return l.readBuiltin(name)
	}
	return nil, fmt.Errorf("cannot find included file %q", name)
}

func (l *loader) readBuiltin(name string) (*source, error) {
	data, err := builtinFS.ReadFile(path.Join("models", name))
	if err != nil {
		return nil, fmt.Errorf("no built-in file %s", name)
	}
	return &source{key: builtinPrefix + name, name: builtinPrefix + name, data: data}, nil
}

// readFile reads a model file. A file whose whole content is the relative
// path of another model file (a symbolic link stored as text, as some
// copies of herd7's library have) is read through.
func (l *loader) readFile(p, display string) (*source, error) {
	for hops := 0; ; hops++ {
		data, err := srcfile.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if target, ok := linkText(data); ok && hops < 8 {
			q := filepath.Join(filepath.Dir(p), target)
			if st, err := os.Stat(q); err == nil && !st.IsDir() {
				p, display = q, q
				continue
			}
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		return &source{key: filepath.Clean(abs), name: display, dir: filepath.Dir(p), data: data}, nil
	}
}

// linkText tells whether data is just a relative path to a model file.
func linkText(data []byte) (string, bool) {
	s := string(bytes.TrimSpace(data))
	if len(s) == 0 || len(s) > 512 || strings.ContainsAny(s, " \t\r\n\"(") {
		return "", false
	}
	for _, ext := range []string{".cat", ".bell", ".def"} {
		if strings.HasSuffix(s, ext) {
			return s, true
		}
	}
	return "", false
}
