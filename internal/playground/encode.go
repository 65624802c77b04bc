package playground

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

// AppendJSON appends resp's JSON encoding to dst: the same bytes as
// encoding/json's Marshal of resp (TestAppendJSON checks it), written by
// hand, field by field. The static site's WebAssembly engine encodes one
// answer per run, and there encoding/json's reflection was about a tenth
// of a warm run and, on a page's first runs, many large functions for
// the browser to compile.
func (resp *Response) AppendJSON(dst []byte) []byte {
	e := encoder{b: dst}
	e.resp(resp)
	return e.b
}

// encoder appends JSON to b. Its helpers are never inlined: in Go's
// WebAssembly each inlined append is a long sequence (growth, copy,
// write barrier), and the encoder's functions, inlined, came to 20-40 KB
// each, which the browser's optimising compiler took long to compile.
type encoder struct{ b []byte }

//go:noinline
func (e *encoder) key(k string, first bool) {
	if !first {
		e.b = append(e.b, ',')
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
}

//go:noinline
func (e *encoder) c(c byte) { e.b = append(e.b, c) }

//go:noinline
func (e *encoder) raw(s string) { e.b = append(e.b, s...) }

func (e *encoder) resp(r *Response) {
	e.c('{')
	e.key("status", true)
	e.str(r.Status)
	e.key("exit", false)
	e.int(r.Exit)
	e.key("output", false)
	e.str(r.Output)
	if r.Stderr != "" {
		e.key("stderr", false)
		e.str(r.Stderr)
	}
	if r.Result != nil {
		e.key("result", false)
		e.result(r.Result)
	}
	if len(r.Observed) > 0 {
		e.key("observed", false)
		e.strs(r.Observed)
	}
	if len(r.States) > 0 {
		e.key("states", false)
		e.c('[')
		for i, row := range r.States {
			if i > 0 {
				e.c(',')
			}
			e.strs(row)
		}
		e.c(']')
	}
	if len(r.Diags) > 0 {
		e.key("diags", false)
		e.c('[')
		for i, d := range r.Diags {
			if i > 0 {
				e.c(',')
			}
			e.c('{')
			e.key("file", true)
			e.str(d.File)
			e.key("line", false)
			e.int(d.Line)
			e.key("col", false)
			e.int(d.Col)
			e.key("msg", false)
			e.str(d.Msg)
			e.c('}')
		}
		e.c(']')
	}
	if r.Graph != nil {
		e.key("graph", false)
		g := r.Graph
		e.c('{')
		e.key("title", true)
		e.str(g.Title)
		e.key("execution", false)
		e.execution(g.Execution)
		if g.Check != "" {
			e.key("check", false)
			e.str(g.Check)
		}
		if len(g.Cycle) > 0 {
			e.key("cycle", false)
			e.steps(g.Cycle)
		}
		e.c('}')
	}
	e.key("engine", false)
	e.str(r.Engine)
	e.key("time_ms", false)
	e.float(r.TimeMS)
	e.c('}')
}

func (e *encoder) result(j *report.JSONResult) {
	e.c('{')
	e.key("file", true)
	e.str(j.File)
	e.key("name", false)
	e.str(j.Name)
	e.key("model", false)
	e.str(j.Model)
	if j.Hash != "" {
		e.key("hash", false)
		e.str(j.Hash)
	}
	e.key("engine", false)
	e.str(j.Engine)
	e.key("status", false)
	e.str(j.Status)
	if j.Error != "" {
		e.key("error", false)
		e.str(j.Error)
	}
	if j.Verdict != "" {
		e.key("verdict", false)
		e.str(j.Verdict)
	}
	if j.Observation != "" {
		e.key("observation", false)
		e.str(j.Observation)
	}
	e.key("condition", false)
	e.str(j.Condition)
	if j.States != nil {
		e.key("states", false)
		e.stateMaps(*j.States)
	}
	if j.Positive != nil {
		e.key("positive", false)
		e.int(*j.Positive)
	}
	if j.Negative != nil {
		e.key("negative", false)
		e.int(*j.Negative)
	}
	if len(j.Flags) > 0 {
		e.key("flags", false)
		e.strs(j.Flags)
	}
	e.key("bounded", false)
	e.bool(j.Bounded)
	if j.Pruned {
		e.key("pruned", false)
		e.bool(true)
	}
	e.key("time_ms", false)
	e.float(j.TimeMS)
	if j.Expected != "" {
		e.key("expected", false)
		e.str(j.Expected)
	}
	if len(j.Engines) > 0 {
		e.key("engines", false)
		e.strMap(j.Engines)
	}
	if j.Witness != nil {
		e.key("witness", false)
		e.execution(j.Witness)
	}
	if j.Explain != nil {
		e.key("explain", false)
		e.explanation(j.Explain)
	}
	e.key("herd", false)
	e.str(j.Herd)
	e.c('}')
}

// stateMaps encodes the states as maps, each with its keys sorted as
// encoding/json sorts them.
func (e *encoder) stateMaps(states []map[string]string) {
	if states == nil {
		e.raw("null")
		return
	}
	e.c('[')
	for i, m := range states {
		if i > 0 {
			e.c(',')
		}
		e.strMap(m)
	}
	e.c(']')
}

// strMap encodes a map of strings (null when nil), its keys sorted.
func (e *encoder) strMap(m map[string]string) {
	if m == nil {
		e.raw("null")
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	e.c('{')
	for i, k := range keys {
		if i > 0 {
			e.c(',')
		}
		e.str(k)
		e.c(':')
		e.str(m[k])
	}
	e.c('}')
}

// sortStrings sorts a few strings by insertion (a state has a few
// observed locations), without package sort's generic code.
func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (e *encoder) execution(x *result.Execution) {
	if x == nil {
		e.raw("null")
		return
	}
	e.c('{')
	e.key("events", true)
	if x.Events == nil {
		e.raw("null")
	} else {
		e.c('[')
		for i, ev := range x.Events {
			if i > 0 {
				e.c(',')
			}
			e.c('{')
			e.key("id", true)
			e.int(ev.ID)
			e.key("thread", false)
			e.int(ev.Thread)
			e.key("label", false)
			e.str(ev.Label)
			e.key("pc", false)
			e.int(ev.PC)
			e.c('}')
		}
		e.c(']')
	}
	e.key("po", false)
	e.pairs(x.Po)
	e.key("rf", false)
	e.pairs(x.Rf)
	e.key("co", false)
	e.pairs(x.Co)
	e.key("fr", false)
	e.pairs(x.Fr)
	e.key("state", false)
	if x.State == nil {
		e.raw("null")
	} else {
		e.c('[')
		for i, v := range x.State {
			if i > 0 {
				e.c(',')
			}
			e.str(v.String()) // Value's MarshalText
		}
		e.c(']')
	}
	e.c('}')
}

func (e *encoder) pairs(ps [][2]int) {
	if ps == nil {
		e.raw("null")
		return
	}
	e.c('[')
	for i, p := range ps {
		if i > 0 {
			e.c(',')
		}
		e.c('[')
		e.int(p[0])
		e.c(',')
		e.int(p[1])
		e.c(']')
	}
	e.c(']')
}

func (e *encoder) explanation(x *result.Explanation) {
	e.c('{')
	e.key("forbidden", true)
	e.bool(x.Forbidden)
	e.key("candidates", false)
	e.int(x.Candidates)
	if len(x.Rejected) > 0 {
		e.key("rejected", false)
		e.c('[')
		for i, rj := range x.Rejected {
			if i > 0 {
				e.c(',')
			}
			e.c('{')
			e.key("execution", true)
			e.execution(rj.Execution)
			e.key("reason", false)
			e.reason(rj.Reason)
			e.c('}')
		}
		e.c(']')
	}
	e.c('}')
}

func (e *encoder) reason(r *result.Reason) {
	if r == nil {
		e.raw("null")
		return
	}
	e.c('{')
	e.key("check", true)
	e.str(r.Check)
	if r.Test != "" {
		e.key("test", false)
		e.str(r.Test)
	}
	if len(r.Steps) > 0 {
		e.key("steps", false)
		e.steps(r.Steps)
	}
	if len(r.Also) > 0 {
		e.key("also", false)
		e.c('[')
		for i, s := range r.Also {
			if i > 0 {
				e.c(',')
			}
			e.steps(s)
		}
		e.c(']')
	}
	e.c('}')
}

// steps encodes a list of steps (null when nil).
func (e *encoder) steps(s []result.Step) {
	if s == nil {
		e.raw("null")
		return
	}
	e.c('[')
	for i, st := range s {
		if i > 0 {
			e.c(',')
		}
		e.c('{')
		e.key("from", true)
		e.int(st.From)
		e.key("to", false)
		e.int(st.To)
		e.key("rel", false)
		e.str(st.Rel)
		e.c('}')
	}
	e.c(']')
}

// strs encodes a list of strings (null when nil).
func (e *encoder) strs(s []string) {
	if s == nil {
		e.raw("null")
		return
	}
	e.c('[')
	for i, x := range s {
		if i > 0 {
			e.c(',')
		}
		e.str(x)
	}
	e.c(']')
}

//go:noinline
func (e *encoder) int(n int) { e.b = strconv.AppendInt(e.b, int64(n), 10) }

//go:noinline
func (e *encoder) bool(v bool) {
	if v {
		e.raw("true")
	} else {
		e.raw("false")
	}
}

// float encodes a float64 as encoding/json does: the shortest decimal
// that reads back the same, in exponent form only below 1e-6 or from
// 1e21 on, with a two-digit exponent written without its leading zero
// (1e-07 becomes 1e-7). NaN and infinities have no JSON form: null,
// which never happens for the times this encodes.
//
//go:noinline
func (e *encoder) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.raw("null")
		return
	}
	if e.milli(f) {
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(e.b)
	e.b = strconv.AppendFloat(e.b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(e.b) - start
		if n >= 4 && e.b[len(e.b)-4] == 'e' && e.b[len(e.b)-3] == '-' && e.b[len(e.b)-2] == '0' {
			e.b[len(e.b)-2] = e.b[len(e.b)-1]
			e.b = e.b[:len(e.b)-1]
		}
	}
}

// milli encodes f when it is a whole number of thousandths below 10^12
// (every time the answers carry: microseconds over 1000), with integer
// arithmetic, and says whether it did. Shortest-form formatting
// (strconv's Ryū) multiplies 64-bit numbers into 128 bits, which
// WebAssembly has no instruction for: it was 1% of a warm X86 pass. The
// text is the same: f is m/1000 correctly rounded, the decimal m/1000
// reads back as f, and no shorter decimal does, since below 2^40 half
// of f's spacing is under 0.0005 (TestAppendJSONFloats compares with
// encoding/json on 300,000 such values and their neighbours).
//
//go:noinline
func (e *encoder) milli(f float64) bool {
	if !(f >= 0 && f < 1e12) || math.Signbit(f) {
		return false
	}
	m := math.Round(f * 1000)
	if float64(int64(m))/1000 != f {
		return false
	}
	n := int64(m)
	e.b = strconv.AppendInt(e.b, n/1000, 10)
	if frac := n % 1000; frac != 0 {
		d := [4]byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
		k := 4
		for d[k-1] == '0' {
			k--
		}
		e.b = append(e.b, d[:k]...)
	}
	return true
}

const hexDigits = "0123456789abcdef"

// str encodes a string as encoding/json does by default: quotes,
// backslashes and control characters escaped (\b, \f, \n, \r, \t by
// their letters), <, > and & as \u003c, \u003e and \u0026, U+2028 and
// U+2029 escaped, and each byte of invalid UTF-8 as \ufffd.
//
//go:noinline
func (e *encoder) str(s string) {
	e.b = append(e.b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			e.b = append(e.b, s[start:i]...)
			switch c {
			case '"', '\\':
				e.b = append(e.b, '\\', c)
			case '\b':
				e.b = append(e.b, '\\', 'b')
			case '\f':
				e.b = append(e.b, '\\', 'f')
			case '\n':
				e.b = append(e.b, '\\', 'n')
			case '\r':
				e.b = append(e.b, '\\', 'r')
			case '\t':
				e.b = append(e.b, '\\', 't')
			default:
				e.b = append(e.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	e.b = append(e.b, s[start:]...)
	e.b = append(e.b, '"')
}

// AppendJSON appends in's JSON encoding to dst: the same bytes as
// encoding/json's Marshal of in.
func (in Info) AppendJSON(dst []byte) []byte {
	e := encoder{b: dst}
	e.c('{')
	e.key("mode", true)
	e.str(in.Mode)
	e.key("engines", false)
	e.strs(in.Engines)
	e.key("commands", false)
	e.strs(in.Commands)
	e.key("models", false)
	e.strs(in.Models)
	e.key("library", false)
	e.strs(in.Library)
	e.c('}')
	return e.b
}
