package report

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/musket-verify/musket/internal/result"
)

// JSONResult is the JSON form of one test's result.
type JSONResult struct {
	File        string               `json:"file"`
	Name        string               `json:"name"`
	Model       string               `json:"model"`
	Hash        string               `json:"hash,omitempty"` // herd7's digest of the test
	Engine      string               `json:"engine"`
	Status      string               `json:"status"`
	Error       string               `json:"error,omitempty"`
	Verdict     string               `json:"verdict,omitempty"`
	Observation string               `json:"observation,omitempty"`
	Condition   string               `json:"condition"`
	States      *[]map[string]string `json:"states,omitempty"`   // nil when not computed
	Positive    *int                 `json:"positive,omitempty"` // nil when the engine does not count executions
	Negative    *int                 `json:"negative,omitempty"`
	Flags       []string             `json:"flags,omitempty"`
	Bounded     bool                 `json:"bounded"`
	Pruned      bool                 `json:"pruned,omitempty"` // only the executions that can settle the condition were enumerated
	TimeMS      float64              `json:"time_ms"`
	Expected    string               `json:"expected,omitempty"`
	Engines     map[string]string    `json:"engines,omitempty"` // each engine's verdict, when they disagree
	// Unconfirmed (-engine both) names the engine that stopped at a limit
	// while the other answered, with its status ("smt: timeout (limit
	// 1s)"): the verdict is the other engine's alone.
	Unconfirmed string              `json:"unconfirmed,omitempty"`
	Witness     *result.Execution   `json:"witness,omitempty"`
	Explain     *result.Explanation `json:"explain,omitempty"`
	// Herd is the result as the text output prints it (herd7's log of
	// the test, Time line included, and -explain's answer), so that the JSON of several runs
	// can be printed again as one log (musket merge).
	Herd string `json:"herd"`
}

// ToJSON converts a result.
func ToJSON(r *result.Result) JSONResult {
	j := Summary(r)
	j.Herd = Herd(r)
	if r.StatesOmitted {
		return j
	}
	states := []map[string]string{}
	names := make([]string, len(r.Observed)) // printed once, not per state
	for i, ref := range r.Observed {
		names[i] = ref.String()
	}
	for _, s := range r.States {
		m := make(map[string]string, len(names))
		for i, name := range names {
			m[name] = s[i].String()
		}
		states = append(states, m)
	}
	j.States = &states
	return j
}

// Herd is the result as the text output prints it, with -explain's
// answer: ToJSON's Herd.
func Herd(r *result.Result) string {
	var herd strings.Builder
	Text(&herd, r)
	// Explain writes nothing without -explain's answer; the test is
	// here too, so that a run without -explain never enters Explain
	// (6 KB of WebAssembly, with fmt's printer: the browser compiled it
	// on the X86 suite's third or fourth pass, for nothing).
	if r.Explain != nil {
		Explain(&herd, r)
	}
	return herd.String()
}

// Summary is ToJSON without the two fields that grow with the test: the
// text output (Herd) and the final states (States). The playground's
// answers use it: they carry the states as a table of their own, and a
// run of a whole folder shows only the verdicts.
func Summary(r *result.Result) JSONResult {
	j := JSONResult{File: r.File, Name: r.Name, Model: r.Model, Engine: r.Engine, Hash: r.Hash, Status: StatusWord(r),
		Condition: r.Condition, Flags: r.Flags, Bounded: r.Bounded, Pruned: r.Pruned,
		TimeMS: float64(r.Time.Microseconds()) / 1000, Witness: r.Witness, Explain: r.Explain, Unconfirmed: r.Unconfirmed}
	if !r.CountsOmitted {
		p, n := r.Positive, r.Negative
		j.Positive, j.Negative = &p, &n
	}
	if r.Err != nil {
		j.Error = r.Err.Error()
	}
	if r.Status == result.Done {
		j.Verdict = "No"
		if r.Ok() {
			j.Verdict = "Ok"
		}
		if !r.Pruned || !r.CountsOmitted {
			j.Observation = r.Observation()
		}
	}
	return j
}

// StatusWord is r's status as the JSON says it (docs/json.md): "limit"
// for an engine stopped at one of its own limits (a result.Limit error:
// an unrolled thread too long, too many paths), which was "error", the
// status of a test that cannot be checked, though its exit status is 3.
func StatusWord(r *result.Result) string {
	if r.Status == result.Failed && errors.Is(r.Err, result.ErrLimit) {
		return "limit"
	}
	return r.Status.String()
}

// JSON writes r as one JSON object on one line.
func JSON(w io.Writer, r *result.Result, expected string) error {
	j := ToJSON(r)
	j.Expected = expected
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
