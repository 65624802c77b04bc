package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/signal"
	"time"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/playground/web"
	"github.com/musket-verify/musket/internal/serve"
)

func init() {
	register("serve", "serve the playground page and run its checks (localhost by default)", runServe)
}

// ctxWriter is a command's output that carries the request's context
// (see commandContext): a canceled request stops the command.
type ctxWriter struct {
	io.Writer
	ctx context.Context
}

func (w ctxWriter) Context() context.Context { return w.ctx }

// serveCommand runs check, param or compare for the server.
func serveCommand(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "unknown command %q\n", name)
		return exitBadInput
	}
	return c.run(args, ctxWriter{stdout, ctx}, stderr)
}

// runServe is 'musket serve [-addr localhost:8080]'.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "`host:port` to listen on; a host other than localhost needs -network")
	network := fs.Bool("network", false, "allow an -addr reachable from the network (the limits apply as always)")
	timeout := durationFlag(fs, "timeout", 20*time.Second, "time limit of one run, a `duration` (e.g. 10s, or 5 for five seconds)")
	mem := intFlag(fs, "mem", 1024, 1, "memory limit of one run, in `MiB` of heap")
	workers := intFlag(fs, "workers", 0, 0, "runs at once (0: half the cores, at least 1)")
	queue := intFlag(fs, "queue", 8, 0, "runs waiting for a worker; more are refused with 503")
	maxBody := intFlag(fs, "max-body", 256, 1, "largest request, in `KiB`")
	maxConns := intFlag(fs, "max-conns", 128, 1, "connections open at once; one more is answered 503 and closed")
	var libDirs listFlag
	fs.Var(&libDirs, "set-libdir", "herd7's library `folder`: its files can then be named as models and included (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: musket serve [-addr localhost:8080] [-network] [limits]")
		fmt.Fprintln(stderr, "Serves the playground page and runs its tests in this process: litmus (every engine), check, param and compare.")
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) > 0 {
		return usageError(fs, stderr, "serve takes no files")
	}
	if *timeout <= 0 {
		return usageError(fs, stderr, "-timeout must be positive: the limits always apply")
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usageError(fs, stderr, "-addr %q: %v", *addr, err)
	}
	if !*network && !isLoopback(host) {
		return usageError(fs, stderr, "-addr %q is reachable from the network: add -network to mean it", *addr)
	}
	srv := serve.New(serve.Config{Timeout: *timeout, MemLimit: int64(*mem) << 20, Workers: *workers, Queue: *queue,
		MaxBody: int64(*maxBody) << 10, MaxConns: *maxConns, LibDirs: libDirs, Assets: web.Assets(), Command: serveCommand})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "musket serve: %v\n", err)
		return exitBadInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), interruptSignals...)
	defer stop()
	serveProcessLimit(fs, srv)
	go srv.Watch(ctx)
	hs := srv.HTTPServer()
	// The requests' contexts are the signal's: SIGINT or SIGTERM stops
	// the runs, which answer "interrupted", and the waiting ones, which
	// answer that the server is stopping; Shutdown then waits (5 s at
	// most) for those answers to be written. Before, the process ended
	// as soon as Serve returned, and every client in flight saw its
	// connection closed with no answer (robust7).
	hs.BaseContext = func(net.Listener) context.Context { return ctx }
	shutDown := make(chan struct{})
	go func() {
		defer close(shutDown)
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	c := srv.Config()
	fmt.Fprintf(stdout, "musket serve: http://%s/ (per run: %v, %d MiB; %d at once, %d waiting)\n", ln.Addr(), c.Timeout, c.MemLimit>>20, c.Workers, c.Queue)
	if err := hs.Serve(srv.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "musket serve: %v\n", err)
		return exitBadInput
	}
	if ctx.Err() != nil {
		<-shutDown
		return exitInterrupted
	}
	return 0
}

// isLoopback tells whether host names this machine only.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveProcessLimit sets the process's memory limit for the server's
// runs (Server.SetProcessLimit: a base and -mem per worker), capped by
// -memory when it is given: it overrode a -memory given, so that
// "-memory 128M" reported runs stopped at "-memory 160MiB" (robust7).
func serveProcessLimit(fs *flag.FlagSet, srv *serve.Server) {
	srv.SetProcessLimit()
	fs.Visit(func(f *flag.Flag) {
		if sf, ok := f.Value.(*sizeFlag); ok && f.Name == "memory" && sf.n > 0 && sf.n < memlimit.Limit() {
			memlimit.Set(sf.n)
		}
	})
}
