// Package playground is the engine side of Musket's playground (musket
// serve and the static WebAssembly site): a request carries a test and a
// model as text, never a path, and the answer carries what the page shows
// (herd-style output, the final states as a table, the verdict, the
// explanation with the execution to draw, and the errors at their lines).
// It needs no cgo, so that it compiles to WebAssembly; the server adds
// the SMT engine and the other commands through Env.
package playground

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// Request is one run asked for by the page.
type Request struct {
	Command string `json:"command"` // litmus (default), check, param, compare
	Name    string `json:"name"`    // the test's file name (SB.litmus, Dekker.pts, mutex.cub, prog.c): its kind
	Test    string `json:"test"`    // the test's text
	// Model is a built-in model's name ("tso"), a herd7 library name
	// ("x86tso.cat"), or "" for the test's default; ignored when Cat is
	// given.
	Model   string            `json:"model,omitempty"`
	Cat     string            `json:"cat,omitempty"`      // a CAT model as text
	CatName string            `json:"cat_name,omitempty"` // its file name (default model.cat)
	Files   map[string]string `json:"files,omitempty"`    // more CAT files the model may include, by name
	Engine  string            `json:"engine,omitempty"`   // litmus: auto, enum, smt, both; check: smt, enum, both
	Explain bool              `json:"explain,omitempty"`
	Variant string            `json:"variant,omitempty"` // comma-separated CAT variants
	Bound   int               `json:"bound,omitempty"`   // litmus -unroll, check/compare -bound (0: the command's default)
	Target  string            `json:"target,omitempty"`  // check -target, compare -target
	Source  string            `json:"source,omitempty"`  // compare -source
	// Brief asks for the verdict alone: a run of a whole folder shows one
	// row per test (see Response).
	Brief bool `json:"brief,omitempty"`
}

// Response is the answer to a Request. Its Result is report.Summary's:
// the page reads the states from Observed and States, and the text output
// from Output. The answer to a Brief request has the Status, Exit, Result
// and Diags, and the Output of an error only: no Output for a verdict, no
// Observed, States or Graph, and no Witness or Explain in the Result.
type Response struct {
	// Status is done (a verdict), error (bad input: see Diags), limit (a
	// time or memory limit, or unsupported), canceled, or busy.
	Status   string             `json:"status"`
	Exit     int                `json:"exit"` // musket's exit status for the same run
	Output   string             `json:"output"`
	Stderr   string             `json:"stderr,omitempty"`
	Result   *report.JSONResult `json:"result,omitempty"`
	Observed []string           `json:"observed,omitempty"` // the columns of States
	States   [][]string         `json:"states,omitempty"`
	Diags    []Diag             `json:"diags,omitempty"`
	Graph    *Graph             `json:"graph,omitempty"`
	Engine   string             `json:"engine"`
	TimeMS   float64            `json:"time_ms"`
}

// Diag is an error at a position of one of the request's texts.
type Diag struct {
	File string `json:"file"` // "test", or the CAT file's name
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

// Graph is an execution to draw: the witness, or the first candidate
// execution the model rejects with the cycle of the check it fails.
type Graph struct {
	Title     string            `json:"title"`
	Execution *result.Execution `json:"execution"`
	Check     string            `json:"check,omitempty"`
	Cycle     []result.Step     `json:"cycle,omitempty"`
}

// Engine runs one parsed test under a loaded model.
type Engine func(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, tags []string, req *Request, timeout time.Duration) (r *result.Result, disagreement string)

// Env is what a run may use besides the request.
type Env struct {
	Timeout time.Duration     // per run; 0 for none
	LibDirs []string          // folders of herd7's library the operator allows (never from the request)
	Engines map[string]Engine // by name; "enum" is built in
}

// Enum is the explicit engine, the one every build has.
func Enum(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, req *Request, timeout time.Duration) (*result.Result, string) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	// As musket litmus: the incoherent candidates are left out where the
	// built-in model rejects them anyway (enum.CoherentModel).
	vs := variants(req.Variant)
	uniproc := t.Mixed || enum.CoherentModel(m)
	for _, on := range vs {
		uniproc = uniproc && (t.Mixed || !on)
	}
	r := enum.Run(ctx, t, m, name, enum.Options{Variants: vs, Bound: bound(req), TagNames: tags, Uniproc: uniproc, Explain: req.Explain})
	result.Unchunk(r, t)
	return r, ""
}

func bound(req *Request) int {
	if req.Bound > 0 {
		return req.Bound
	}
	return 2
}

func variants(s string) map[string]bool {
	if s == "" {
		// None, nearly every request: no map and no split (the engine
		// only reads the set, and nil is the empty set).
		return nil
	}
	out := map[string]bool{}
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out[v] = true
		}
	}
	return out
}

// TestName is the file name of the request's test: its base name,
// never a path.
func (req *Request) TestName() string {
	n := req.Name
	if strings.IndexByte(n, '\\') >= 0 {
		// (Not called on names without one: strings.Replace is a large
		// function for the browser to compile for every test's name.)
		n = strings.ReplaceAll(n, `\`, "/")
	}
	n = path.Base(n)
	if n == "" || n == "." || n == "/" || n == ".." {
		return "test.litmus"
	}
	return n
}

// CatFile is the file name of the request's CAT model.
func (req *Request) CatFile() string {
	n := path.Base(strings.ReplaceAll(req.CatName, `\`, "/"))
	if n == "" || n == "." || n == "/" || n == ".." {
		return "model.cat"
	}
	if !strings.HasSuffix(n, ".cat") {
		n += ".cat"
	}
	return n
}

// LoadModel loads the request's model for a test of the architecture
// archWord: the CAT text with its files, else the named model (a built-in
// or herd7 library name, never a path), else the architecture's default.
func LoadModel(req *Request, archWord string, env Env) (*cat.Model, string, error) {
	if req.Cat != "" {
		return loadText(req, env)
	}
	ms := driver.Models{Model: req.Model, LibDirs: env.LibDirs}
	if strings.ContainsAny(req.Model, `/\`) {
		return nil, "", fmt.Errorf("model %q: name a built-in model or a herd7 library file, not a path", req.Model)
	}
	spec, err := ms.SpecFor(archWord)
	if err != nil {
		return nil, "", err
	}
	// A named model is loaded once and shared, as package batch shares
	// one between its workers: the engines only read it.
	key := spec + "\x00"
	if len(env.LibDirs) > 0 {
		// (Not joined when there are none, the static site's case:
		// strings.Join is more code for the browser to compile.)
		key += strings.Join(env.LibDirs, "\x00")
	}
	modelCache.Lock()
	e, ok := modelCache.m[key]
	if !ok {
		e = &cachedModel{}
		modelCache.m[key] = e
	}
	modelCache.Unlock()
	e.once.Do(func() { e.model, e.name, e.err = ms.Load(spec) })
	return e.model, e.name, e.err
}

// loadText loads the request's own model text. A function of its own,
// kept out of line, so that LoadModel, which every request runs, stays
// small: V8 optimises a WebAssembly function by the size of what it
// runs, and every byte of LoadModel's body is compiled again when it is.
//
//go:noinline
func loadText(req *Request, env Env) (*cat.Model, string, error) {
	files := map[string][]byte{}
	for n, text := range req.Files {
		files[path.Base(n)] = []byte(text)
	}
	name := req.CatFile()
	files[name] = []byte(req.Cat)
	m, err := cat.LoadText(name, files, cat.LoadOptions{LibDirs: env.LibDirs})
	return m, name, err
}

// modelCache holds the named models loaded so far.
var modelCache = struct {
	sync.Mutex
	m map[string]*cachedModel
}{m: map[string]*cachedModel{}}

type cachedModel struct {
	once  sync.Once
	model *cat.Model
	name  string
	err   error
}

// Valid says what is wrong with a request whose JSON was read, as the
// command line would refuse it: a negative bound (the command line's
// -bound and -unroll refuse one; 0 is the command's default).
func (r *Request) Valid() error {
	if r.Bound < 0 {
		return fmt.Errorf("bound %d: want 0 (the command's default) or more", r.Bound)
	}
	return nil
}

// RunLitmus runs a litmus test (the litmus command) in the process.
func RunLitmus(ctx context.Context, req *Request, env Env) *Response {
	start := time.Now()
	resp := &Response{Engine: req.Engine}
	if resp.Engine == "" {
		resp.Engine = "enum"
	}
	name := req.TestName()
	if err := req.Valid(); err != nil {
		return resp.fail(err, 2, name, req)
	}
	// The page prints no Hash= line (report.Text prints one only when
	// the test carries it), so herd7's digest is not computed.
	t, err := litmus.ParseUnhashed(name, []byte(req.Test))
	if err != nil {
		return resp.fail(err, 2, name, req)
	}
	m, mname, err := LoadModel(req, t.Arch, env)
	if err != nil {
		return resp.fail(err, 2, name, req)
	}
	if req.Cat == "" && req.Model == "" {
		if err := (driver.Models{}).CheckDialect(t); err != nil {
			return resp.fail(err, 2, name, req)
		}
	}
	eng := env.Engines[resp.Engine]
	if eng == nil && resp.Engine == "enum" {
		eng = Enum
	}
	if eng == nil {
		return resp.noEngine(name, req, env)
	}
	r, disagree := eng(ctx, t, m, mname, driver.Tags(t.Arch), req, env.Timeout)
	resp.TimeMS = ms(time.Since(start))
	if r == nil {
		return resp.fail(fmt.Errorf("no answer from the engine %q", resp.Engine), 2, name, req)
	}
	render(resp, r, disagree, ctx, name, req)
	return resp
}

// noEngine answers a request for an engine env lacks. Out of line, so
// that RunLitmus, which every request runs, stays small for the browser
// to compile (see loadText).
//
//go:noinline
func (resp *Response) noEngine(name string, req *Request, env Env) *Response {
	return resp.fail(fmt.Errorf("the engine %q is not offered here (this build has: %s)", resp.Engine, strings.Join(EngineNames(env), ", ")), 2, name, req)
}

// EngineNames lists the engines env offers.
func EngineNames(env Env) []string {
	names := []string{"enum"}
	for n := range env.Engines {
		if n != "enum" {
			names = append(names, n)
		}
	}
	sort.Strings(names[1:])
	return names
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// render fills resp from a result.
func render(resp *Response, r *result.Result, disagree string, ctx context.Context, name string, req *Request) {
	var out bytes.Buffer
	if disagree != "" {
		fmt.Fprintf(&out, "Test %s %s\nDisagreement %s\n", r.Name, r.Kind(), disagree)
		resp.Status, resp.Exit = "error", 4
		resp.Output = out.String()
		return
	}
	// The answer carries the text output (report.Herd: herd's log with
	// -explain's answer) once, as Output, and the states once, as a
	// table (Observed and States), not again in the Result as ToJSON
	// would; nor the witness, which the graph carries (the WebAssembly
	// engine pays for every byte it builds and encodes).
	j := report.Summary(r)
	j.File = name
	j.Witness = nil
	resp.Result = &j
	resp.Status, resp.Exit = status(r, ctx)
	if r.Err != nil {
		resp.Diags = diags(r.Err.Error(), name, req)
	}
	if req.Brief {
		j.Explain = nil
		if resp.Status != "done" && r.Err != nil {
			resp.Output = r.Err.Error() + "\n"
		}
		return
	}
	resp.Output = report.Herd(r)
	for _, ref := range r.Observed {
		resp.Observed = append(resp.Observed, ref.String())
	}
	if !r.StatesOmitted {
		for _, s := range r.States {
			row := make([]string, len(s))
			for i, v := range s {
				row[i] = v.String()
			}
			resp.States = append(resp.States, row)
		}
	}
	if ex := r.Explain; ex != nil && ex.Forbidden && len(ex.Rejected) > 0 {
		rj := ex.Rejected[0]
		g := &Graph{Title: "a candidate execution the model rejects", Execution: rj.Execution}
		if rj.Reason != nil {
			g.Check, g.Cycle = rj.Reason.Check, rj.Reason.Steps
		}
		resp.Graph = g
	} else if r.Witness != nil {
		resp.Graph = &Graph{Title: "witness", Execution: r.Witness}
	}
}

// status is the answer's status and exit status for a result, as the
// command line's table says: a memory limit and an engine's own limit
// are limits (3), which were "error" (2) here (robust6).
func status(r *result.Result, ctx context.Context) (string, int) {
	switch {
	case r.Status == result.Done:
		return "done", 0
	case r.Status == result.Timeout || r.Status == result.Unsupported || r.Status == result.MemoryLimit ||
		r.Status == result.Failed && errors.Is(r.Err, result.ErrLimit):
		if ctx.Err() == context.Canceled {
			return "canceled", 130
		}
		return "limit", 3
	default:
		return "error", 2
	}
}

// fail answers an error of the input.
func (resp *Response) fail(err error, exit int, name string, req *Request) *Response {
	resp.Status, resp.Exit = "error", exit
	resp.Output = err.Error() + "\n"
	resp.Diags = diags(err.Error(), name, req)
	return resp
}

// positions finds the "file:line:col: msg" errors of text, one a line
// at most, after an optional "prefix: ": for each, the file, line,
// column and message. It is the regular expression
// (?m)^(?:[^\n]*?: )?([^\s:][^:\n]*):(\d+):(\d+): (.*)$ (the shortest
// prefix first, then none), written by hand so that the playground's
// WebAssembly engine links no regexp package.
func positions(text string) [][4]string {
	var out [][4]string
	for _, line := range strings.Split(text, "\n") {
		if m, ok := positionIn(line); ok {
			out = append(out, m)
		}
	}
	return out
}

// positionIn finds the position of one line: after the shortest prefix
// ending in ": " that leaves one, else at the line's start.
func positionIn(line string) ([4]string, bool) {
	for p := 2; p <= len(line); p++ {
		if line[p-2:p] == ": " {
			if m, ok := positionAt(line[p:]); ok {
				return m, true
			}
		}
	}
	return positionAt(line)
}

// positionAt matches ([^\s:][^:\n]*):(\d+):(\d+): (.*)$ on a whole line.
func positionAt(s string) ([4]string, bool) {
	if s == "" || strings.IndexByte(" \t\n\f\r:", s[0]) >= 0 {
		return [4]string{}, false
	}
	file, rest, ok := strings.Cut(s, ":")
	if !ok {
		return [4]string{}, false
	}
	digits := func(s string) (string, string, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || s[i] != ':' {
			return "", "", false
		}
		return s[:i], s[i+1:], true
	}
	line, rest, ok := digits(rest)
	if !ok {
		return [4]string{}, false
	}
	col, rest, ok := digits(rest)
	if !ok || !strings.HasPrefix(rest, " ") {
		return [4]string{}, false
	}
	return [4]string{file, line, col, rest[1:]}, true
}

// diags finds the "file:line:col: msg" errors of text in the request's
// texts: file is "test" for the test, else a CAT file's name; a position
// in a built-in file or another file is left out.
func diags(text, name string, req *Request) []Diag {
	var out []Diag
	for _, m := range positions(text) {
		file := path.Base(m[0])
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		switch {
		case file == name:
			file = "test"
		case req.Cat != "" && file == req.CatFile():
		case req.Files[file] != "":
		default:
			continue
		}
		out = append(out, Diag{File: file, Line: line, Col: col, Msg: m[3]})
	}
	return out
}

// Diags is diags for the output of a command run on files (the server's
// check, param and compare): positions in name are the test's.
func Diags(text, name string, req *Request) []Diag { return diags(text, name, req) }

// Info is what the page needs to know of the engine it talks to.
type Info struct {
	Mode     string   `json:"mode"` // "server" or "static"
	Engines  []string `json:"engines"`
	Commands []string `json:"commands"`
	Models   []string `json:"models"`
	Library  []string `json:"library"` // built-in files a CAT model may include by name
}

// StaticInfo is the Info of the static site: the explicit engine and
// litmus tests only.
func StaticInfo() Info {
	in := Info{Mode: "static", Engines: []string{"enum"}, Commands: []string{"litmus"}, Library: cat.BuiltinFiles()}
	for _, b := range cat.Builtins() {
		in.Models = append(in.Models, b.Name)
	}
	return in
}
