package batch

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// fake is an engine that answers with status st after d, or stops with
// a time-out when its context ends first.
func fake(engine string, st result.Status, err error, d time.Duration) Engine {
	return func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		select {
		case <-time.After(d):
			return &result.Result{Engine: engine, Status: st, Err: err}
		case <-ctx.Done():
			return &result.Result{Engine: engine, Status: result.Timeout}
		}
	}
}

func TestPortfolio(t *testing.T) {
	defer func(d time.Duration) { AutoDelay = d }(AutoDelay)
	AutoDelay = 20 * time.Millisecond
	long := time.Hour
	cases := []struct {
		name       string
		enum, smt  Engine
		pruned     Engine // nil: the same as enum (the pruned engine replaces it after AutoDelay)
		wantEngine string
		wantStatus result.Status
	}{
		// Where the explicit engine answers at once (the fast one, the
		// one at a limit, an error of the test), AutoDelay is a minute,
		// so that no other engine starts however late a loaded machine
		// runs the engine's goroutine; elsewhere it is 20 ms and the
		// explicit engine never answers (an hour), or answers the same
		// whichever comes first (the SMT engine's refusal or its answer).
		{"fast explicit engine", fake("enum", result.Done, nil, 0), fake("smt", result.Done, nil, 0), fake("pruned", result.Done, nil, 0), "enum", result.Done},
		{"slow explicit engine", fake("enum", result.Done, nil, long), fake("smt", result.Done, nil, 0), nil, "smt", result.Done},
		{"fast pruned engine", fake("enum", result.Done, nil, long), fake("smt", result.Done, nil, long), fake("pruned", result.Done, nil, 0), "pruned", result.Done},
		{"explicit engine at a limit", fake("enum", result.Failed, result.Limit("too many paths"), 0), fake("smt", result.Done, nil, 0), nil, "smt", result.Done},
		{"an error of the test", fake("enum", result.Failed, errors.New("division by zero"), 0), fake("smt", result.Done, nil, 0), nil, "enum", result.Failed},
		{"model the SMT engine cannot encode", fake("enum", result.Done, nil, 100*time.Millisecond), fake("smt", result.Unsupported, nil, 0), nil, "enum", result.Done},
		{"neither answers", fake("enum", result.Done, nil, long), fake("smt", result.Unsupported, nil, 0), nil, "enum", result.Timeout},
		{"pruned engine at a limit", fake("enum", result.Done, nil, long), fake("smt", result.Unsupported, nil, 0), fake("pruned", result.Failed, result.Limit("too many paths"), 0), "pruned", result.Failed},
		{"an error of the test found by the pruned engine", fake("enum", result.Done, nil, long), fake("smt", result.Done, nil, long), fake("pruned", result.Failed, errors.New("division by zero"), 0), "pruned", result.Failed},
	}
	for _, c := range cases {
		AutoDelay = 20 * time.Millisecond
		if c.name == "fast explicit engine" || c.name == "explicit engine at a limit" || c.name == "an error of the test" {
			AutoDelay = time.Minute
		}
		// A minute for an answer (a loaded machine); a second when the
		// answer is the time-out itself.
		limit := time.Minute
		if c.wantStatus == result.Timeout {
			limit = time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		pruned := c.pruned
		if pruned == nil {
			pruned = c.enum
		}
		opts := Options{Engines: map[string]Engine{"enum": c.enum, "smt": c.smt, "pruned": pruned}}
		r := runAuto(ctx, &spec.Test{}, nil, "m", nil, opts)
		cancel()
		if r.Engine != c.wantEngine || r.Status != c.wantStatus {
			t.Errorf("%s: answer by %s (%s), want %s (%s)", c.name, r.Engine, r.Status, c.wantEngine, c.wantStatus)
		}
	}
}

// TestPortfolioSpeedCheck: with -speedcheck the explicit engine is pruned
// already; it goes on after AutoDelay and no second one starts.
func TestPortfolioSpeedCheck(t *testing.T) {
	defer func(d time.Duration) { AutoDelay = d }(AutoDelay)
	AutoDelay = 20 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := Options{SpeedCheck: enum.SpeedOn, Engines: map[string]Engine{
		"enum":   fake("enum", result.Done, nil, 100*time.Millisecond),
		"smt":    fake("smt", result.Done, nil, time.Hour),
		"pruned": fake("pruned", result.Done, nil, 0),
	}}
	if r := runAuto(ctx, &spec.Test{}, nil, "m", nil, opts); r.Engine != "enum" || r.Status != result.Done {
		t.Errorf("answer by %s (%s), want enum (done)", r.Engine, r.Status)
	}
}
