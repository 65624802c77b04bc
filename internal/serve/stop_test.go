package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/musket-verify/musket/internal/playground"
)

// TestStopAnswers: when the server stops (musket serve's SIGINT or
// SIGTERM cancels the requests' base context), the run in progress
// answers "interrupted" and the one waiting for a worker answers that
// the server is stopping. Before, the process ended with their
// connections closed and no answer (robust7). No clock: the run is a
// command that waits for its context.
func TestStopAnswers(t *testing.T) {
	base, stop := context.WithCancel(context.Background())
	defer stop()
	s := New(Config{Workers: 1, Queue: 1, Command: func(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
		<-ctx.Done()
		return 130
	}})
	hs := httptest.NewUnstartedServer(s.Handler())
	hs.Config.BaseContext = func(net.Listener) context.Context { return base }
	hs.Start()
	defer hs.Close()
	body := mustJSON(playground.Request{Command: "param", Name: "x.cub", Test: "var X : bool\nunsafe () { X = True }\n"})
	type reply struct {
		code int
		resp playground.Response
	}
	replies := make(chan reply, 2)
	for range 2 {
		go func() {
			r, err := http.Post(hs.URL+"/api/run", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				replies <- reply{}
				return
			}
			defer r.Body.Close()
			var rp reply
			rp.code = r.StatusCode
			json.NewDecoder(r.Body).Decode(&rp.resp)
			replies <- rp
		}()
	}
	// One runs, one waits (polled; the guard is the test's deadline).
	for {
		s.mu.Lock()
		running := len(s.running)
		s.mu.Unlock()
		if running == 1 && s.waiting.Load() == 2 {
			break
		}
		runtime.Gosched()
	}
	stop()
	got := map[string]bool{}
	for range 2 {
		rp := <-replies
		switch {
		case rp.code == http.StatusOK && rp.resp.Status == "interrupted" && rp.resp.Exit == 130 && bytes.Contains([]byte(rp.resp.Output), []byte("the server is stopping")):
			got["run"] = true
		case rp.code == http.StatusServiceUnavailable && bytes.Contains([]byte(rp.resp.Output), []byte("the server is stopping: the run did not begin")):
			got["wait"] = true
		default:
			t.Errorf("answer %d %+v", rp.code, rp.resp)
		}
	}
	if !got["run"] || !got["wait"] {
		t.Errorf("answers %v: want the run interrupted and the waiting one refused", got)
	}
}
