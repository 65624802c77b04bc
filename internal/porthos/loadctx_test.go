package porthos

import (
	"context"
	"errors"
	"testing"
)

// TestLoadContextStopped: a litmus test is read under the context, so a
// compare whose time limit has passed stops before the parse ends
// (robust5: a 3.6 MB test was parsed outside -timeout), and a live
// context loads the test as Load does.
func TestLoadContextStopped(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	const sb = "../../examples/litmus/SB.litmus"
	if _, err := LoadContext(done, sb, &Side{}, &Side{}, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v, want context.Canceled", err)
	}
	p, err := LoadContext(context.Background(), sb, &Side{}, &Side{}, 2)
	if err != nil || p.Name != "SB" || !p.Same {
		t.Errorf("live context: %+v, %v", p, err)
	}
}
