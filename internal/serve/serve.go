// Package serve is musket serve: an HTTP server that gives the
// playground page (package web's assets) and runs the page's requests in
// the process, under limits that always apply: a time limit and a memory
// limit per run, a bounded number of runs at once and of runs waiting
// (more are refused with 503 and a message that says so), a size limit
// on requests, tests and models as text (never a path from the client),
// and includes only of files given by name or built in; and on
// connections (conns.go): a bounded number open, each request read
// within a time limit, idle ones closed.
package serve

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/playground"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// Command runs one of musket's commands in the process (cmd/musket's
// dispatch) with the context of the request: check, param and compare.
type Command func(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int

// Config are the server's limits and what it serves.
type Config struct {
	Timeout  time.Duration // per run (default 20 s)
	MemLimit int64         // heap bytes a run may hold (default 1 GiB)
	MemBase  int64         // heap bytes of the server itself, beyond the runs' (default 64 MiB; -1 for none, in tests)
	Workers  int           // runs at once (default: half the cores, at least 1)
	Queue    int           // runs waiting for a worker (default 8)
	MaxBody  int64         // request bytes (default 256 KiB)
	// The connections (HTTPServer, Listener): a request read within
	// ReadTimeout (default 60 s), a kept-alive connection closed after
	// IdleTimeout idle (default 60 s), at most MaxConns open (default 128).
	// External tells the bytes the runs hold outside the Go heap (Z3's);
	// nil: memlimit.External.
	External    func() uint64
	ReadTimeout time.Duration
	IdleTimeout time.Duration
	MaxConns    int
	LibDirs     []string // herd7's library folders, chosen by the operator
	Assets      fs.FS    // the page
	Command     Command  // nil: litmus only
}

func (c *Config) defaults() {
	if c.Timeout <= 0 {
		c.Timeout = 20 * time.Second
	}
	if c.MemLimit <= 0 {
		c.MemLimit = 1 << 30
	}
	if c.MemBase == 0 {
		c.MemBase = 64 << 20
	} else if c.MemBase < 0 {
		c.MemBase = 0
	}
	if c.Workers <= 0 {
		c.Workers = max(1, runtime.NumCPU()/2)
	}
	if c.Queue < 0 {
		c.Queue = 0
	} else if c.Queue == 0 {
		c.Queue = 8
	}
	if c.MaxBody <= 0 {
		c.MaxBody = 256 << 10
	}
	if c.External == nil {
		c.External = memlimit.External
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = time.Minute
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = time.Minute
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 128
	}
}

// Server is one musket serve.
type Server struct {
	cfg     Config
	slots   chan struct{} // a token per running run
	waiting atomic.Int64  // runs admitted (running or waiting)
	mu      sync.Mutex
	running map[*activeRun]bool
	served  atomic.Int64
	refused atomic.Int64
}

// activeRun is one request being run, for the memory watchdog.
type activeRun struct {
	cancel context.CancelCauseFunc
	start  time.Time
}

// errMemory is the cause of a run stopped by the memory watchdog.
var errMemory = errors.New("memory limit")

// New returns a server with cfg's limits (zero fields take the defaults).
func New(cfg Config) *Server {
	cfg.defaults()
	s := &Server{cfg: cfg, slots: make(chan struct{}, cfg.Workers), running: map[*activeRun]bool{}}
	return s
}

// Config returns the limits in force.
func (s *Server) Config() Config { return s.cfg }

// SetProcessLimit sets the process's memory limit (package memlimit) to
// what the server's runs may hold together: Go's soft limit, so that the
// collector works before Watch has to stop a run, and Z3's own
// (memory_max_size), past which it fails the run's operation instead of
// allocating on (it was left at the default of -memory, three quarters
// of the machine, whatever -mem said). It is for the musket serve
// process, not for tests.
func (s *Server) SetProcessLimit() {
	memlimit.Set(s.cfg.MemBase + s.cfg.MemLimit*int64(s.cfg.Workers))
}

// Watch stops the newest run while the heap and the memory of the C
// libraries (Z3's, which the Go heap does not count) hold more than the
// memory limit per running run (plus a base for the server itself),
// until ctx is done.
func (s *Server) Watch(ctx context.Context) {
	base := s.cfg.MemBase
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		heap := int64(sample[0].Value.Uint64() + s.cfg.External())
		s.mu.Lock()
		n := int64(len(s.running))
		if n > 0 && heap > base+s.cfg.MemLimit*n {
			var newest *activeRun
			for r := range s.running {
				if newest == nil || r.start.After(newest.start) {
					newest = r
				}
			}
			delete(s.running, newest)
			newest.cancel(errMemory)
		}
		s.mu.Unlock()
	}
}

// Handler is the server's HTTP handler: the page, /api/info,
// /api/model?name=NAME and POST /api/run.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	if s.cfg.Assets != nil {
		mux.Handle("GET /", gzipAssets(s.cfg.Assets))
	}
	mux.HandleFunc("GET /api/info", s.info)
	mux.HandleFunc("GET /api/model", s.model)
	mux.HandleFunc("POST /api/run", s.run)
	return mux
}

// Info is what /api/info tells the page: the engines and commands, and
// the limits.
type Info struct {
	playground.Info
	Limits struct {
		TimeoutMS float64 `json:"timeout_ms"`
		MemoryMB  int64   `json:"memory_mb"`
		Workers   int     `json:"workers"`
		Queue     int     `json:"queue"`
		MaxBody   int64   `json:"max_body"`
	} `json:"limits"`
	Served  int64 `json:"served"`
	Refused int64 `json:"refused"`
	// Running and Waiting are the runs the server holds now: the page
	// shows them beside a run's time, so that a run waiting for a worker
	// says so.
	Running int `json:"running"`
	Waiting int `json:"waiting"`
}

func (s *Server) info(w http.ResponseWriter, r *http.Request) {
	in := Info{Info: playground.StaticInfo(), Served: s.served.Load(), Refused: s.refused.Load(), Running: len(s.slots)}
	in.Waiting = max(0, int(s.waiting.Load())-in.Running)
	in.Mode, in.Engines, in.Commands = "server", playground.EngineNames(s.env()), []string{"litmus"}
	if s.cfg.Command != nil {
		in.Commands = append(in.Commands, "check", "param", "compare")
	}
	in.Limits.TimeoutMS = float64(s.cfg.Timeout.Milliseconds())
	in.Limits.MemoryMB = s.cfg.MemLimit >> 20
	in.Limits.Workers, in.Limits.Queue, in.Limits.MaxBody = s.cfg.Workers, s.cfg.Queue, s.cfg.MaxBody
	writeJSON(w, http.StatusOK, in)
}

func (s *Server) model(w http.ResponseWriter, r *http.Request) {
	data, err := cat.BuiltinSource(r.URL.Query().Get("name"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write(data)
}

// env is the playground environment of the server's runs.
func (s *Server) env() playground.Env {
	eng := func(name string) playground.Engine {
		return func(ctx context.Context, t *spec.Test, m *cat.Model, mname string, tags []string, req *playground.Request, timeout time.Duration) (*result.Result, string) {
			opts := batch.Options{Engine: name, Timeout: timeout, Bound: req.Bound, Variants: map[string]bool{}, Explain: req.Explain}
			if opts.Bound <= 0 {
				opts.Bound = 2
			}
			for k := range splitVariants(req.Variant) {
				opts.Variants[k] = true
			}
			r, d := batch.RunTest(ctx, t, m, mname, tags, opts)
			if d != nil {
				return r, d.What
			}
			return r, ""
		}
	}
	return playground.Env{Timeout: s.cfg.Timeout, LibDirs: s.cfg.LibDirs,
		Engines: map[string]playground.Engine{"enum": eng("enum"), "smt": eng("smt"), "auto": eng("auto"), "both": eng("both")}}
}

func splitVariants(v string) map[string]bool {
	out := map[string]bool{}
	start := 0
	for i := 0; i <= len(v); i++ {
		if i == len(v) || v[i] == ',' {
			if w := v[start:i]; w != "" {
				out[w] = true
			}
			start = i + 1
		}
	}
	return out
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// refuse answers a request the server does not run, with a status and
// a message the page shows.
func refuse(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, &playground.Response{Status: statusWord(code), Exit: 2, Output: msg + "\n"})
}

func statusWord(code int) string {
	if code == http.StatusServiceUnavailable {
		return "busy"
	}
	return "error"
}

// bodyTime is how long a request's body may take to come: a client
// that sends it a byte at a time held its connection and handler for
// good (robust5). The connection's ReadTimeout (Config) would end it
// without an answer; this deadline, set over it, comes first and gives
// a 408 that says why. It is lifted once the body is read, so that a
// long run is not cut by either.
var bodyTime = 30 * time.Second

func (s *Server) run(w http.ResponseWriter, hr *http.Request) {
	rc := http.NewResponseController(w)
	wait := bodyTime
	if s.cfg.ReadTimeout > 0 {
		wait = min(wait, s.cfg.ReadTimeout)
	}
	_ = rc.SetReadDeadline(time.Now().Add(wait)) // not every ResponseWriter has one (tests)
	hr.Body = http.MaxBytesReader(w, hr.Body, s.cfg.MaxBody)
	var req playground.Request
	dec := json.NewDecoder(hr.Body)
	err := dec.Decode(&req)
	if err != nil {
		// The deadline stays, and the connection closes after the
		// answer: the server would otherwise wait, without a deadline,
		// for the rest of a body it no longer reads.
		w.Header().Set("Connection", "close")
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than the server's limit of %d bytes", s.cfg.MaxBody))
			return
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			refuse(w, http.StatusRequestTimeout, fmt.Sprintf("the request's body did not come within %v", wait))
			return
		}
		refuse(w, http.StatusBadRequest, "the request is not the playground's JSON: "+err.Error())
		return
	}
	_ = rc.SetReadDeadline(time.Time{})
	if err := req.Valid(); err != nil {
		refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	// Admission: a bounded number of runs, running or waiting.
	limit := int64(s.cfg.Workers + s.cfg.Queue)
	if n := s.waiting.Add(1); n > limit {
		s.waiting.Add(-1)
		s.refused.Add(1)
		w.Header().Set("Retry-After", "2")
		refuse(w, http.StatusServiceUnavailable, fmt.Sprintf("the server is busy: %d runs are running and %d waiting, the most it takes; try again in a moment", s.cfg.Workers, s.cfg.Queue))
		return
	}
	defer s.waiting.Add(-1)
	select {
	case s.slots <- struct{}{}:
	case <-hr.Context().Done():
		// The client left, or the server is stopping (SIGINT, SIGTERM:
		// the request's context is the server's): said, for a client
		// still there (the connection was closed with no answer).
		refuse(w, http.StatusServiceUnavailable, "the server is stopping: the run did not begin")
		return
	}
	defer func() { <-s.slots }()
	ctx, cancel := context.WithCancelCause(hr.Context())
	defer cancel(nil)
	ctx, stop := context.WithTimeout(ctx, s.cfg.Timeout+5*time.Second)
	defer stop()
	rn := &activeRun{cancel: cancel, start: time.Now()}
	s.mu.Lock()
	s.running[rn] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.running, rn)
		s.mu.Unlock()
	}()
	resp := s.dispatch(ctx, &req)
	switch {
	case errors.Is(context.Cause(ctx), errMemory):
		resp.Status, resp.Exit = "limit", 3
		resp.Output += fmt.Sprintf("stopped: the run held more than the server's memory limit of %d MiB\n", s.cfg.MemLimit>>20)
		resp.Result, resp.States, resp.Graph = nil, nil, nil
	case hr.Context().Err() != nil || resp.Exit == 130:
		// Stopped with the server (or its client gone): whatever the
		// run says of its stop, it is an interruption, not a verdict
		// nor a time-out (robust7: the connection was closed with no
		// answer). A command run in the process (check, param, compare)
		// may see the signal first and answer 130 before the request's
		// context is canceled.
		resp.Status, resp.Exit = "interrupted", 130
		resp.Output += "stopped: the server is stopping (SIGINT or SIGTERM)\n"
		resp.Result, resp.States, resp.Graph = nil, nil, nil
	}
	s.served.Add(1)
	writeJSON(w, http.StatusOK, resp)
}

// dispatch runs one request by its command.
func (s *Server) dispatch(ctx context.Context, req *playground.Request) *playground.Response {
	switch req.Command {
	case "", "litmus":
		if req.Cat == "" {
			if err := s.checkModelNames("model", req.Model); err != nil {
				return &playground.Response{Status: "error", Exit: 2, Engine: req.Engine, Output: err.Error() + "\n"}
			}
		}
		return playground.RunLitmus(ctx, req, s.env())
	case "check", "param", "compare":
		if s.cfg.Command == nil {
			return &playground.Response{Status: "error", Exit: 2, Output: "this server runs litmus tests only\n"}
		}
		return s.runCommand(ctx, req)
	}
	return &playground.Response{Status: "error", Exit: 2, Output: fmt.Sprintf("unknown command %q (litmus, check, param or compare)\n", req.Command)}
}

// gzipAssets serves the page's files, compressed once with gzip for the
// browsers that take it (the bundle shrinks to a third).
func gzipAssets(assets fs.FS) http.Handler {
	files := http.FileServerFS(assets)
	var mu sync.Mutex
	cache := map[string][]byte{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		ext := path.Ext(name)
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") || (ext != ".js" && ext != ".json" && ext != ".css" && ext != ".html") {
			files.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		gz, ok := cache[name]
		if !ok {
			data, err := fs.ReadFile(assets, name)
			if err != nil {
				mu.Unlock()
				files.ServeHTTP(w, r)
				return
			}
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			zw.Write(data)
			zw.Close()
			gz = b.Bytes()
			cache[name] = gz
		}
		mu.Unlock()
		w.Header().Set("Content-Type", mime.TypeByExtension(ext))
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Vary", "Accept-Encoding")
		w.Write(gz)
	})
}
