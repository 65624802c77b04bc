package main

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/driver"
)

// TestModelsWithin: a model that does not load within the time limit is
// a limit reached, said with the model's name (robust5: the load of a
// model of megabytes did not look at -timeout); one that loads is used.
func TestModelsWithin(t *testing.T) {
	f := newLitmusFlags(io.Discard)
	*f.model = "big.cat"
	release := make(chan struct{})
	defer close(release)
	stuck := func() (driver.Models, error) { <-release; return driver.Models{}, nil }
	if _, err := f.modelsWithin(time.Nanosecond, stuck); !errors.Is(err, errModelSlow) || !strings.Contains(err.Error(), "-model big.cat") {
		t.Errorf("stuck load: %v, want errModelSlow naming the model", err)
	}
	// No model file named: the load (macros, variants) is not timed, and
	// no model is blamed (robust6: "-timeout 1ns" said "the model of
	// -conf : did not load").
	g := newLitmusFlags(io.Discard)
	if _, err := g.modelsWithin(time.Nanosecond, func() (driver.Models, error) { return driver.Models{}, nil }); err != nil {
		t.Errorf("no model named, -timeout 1ns: %v", err)
	}
	quick := func() (driver.Models, error) { return driver.Models{Model: "big.cat"}, nil }
	for _, limit := range []time.Duration{0, time.Hour} {
		if ms, err := f.modelsWithin(limit, quick); err != nil || ms.Model != "big.cat" {
			t.Errorf("limit %v: %+v, %v", limit, ms, err)
		}
	}
}
