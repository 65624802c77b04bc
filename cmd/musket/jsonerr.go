package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// A command run with -json promises JSON on standard output. Some
// errors end a command before it prints anything (a file that does not
// exist, an unknown model, a folder where files are expected): they are
// said on standard error as always, and runJSONAware then prints one
// object on standard output, {"status": "error", "error": MESSAGE,
// "exit_status": N}, so that a program reading the output still reads
// JSON.

// wantsJSON tells whether a command line asks for -json (before "--").
func wantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-json", "--json", "-json=true", "--json=true":
			return true
		}
	}
	return false
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// firstLineWriter keeps the first line written through it.
type firstLineWriter struct {
	w    io.Writer
	buf  bytes.Buffer
	done bool
}

func (f *firstLineWriter) Write(p []byte) (int, error) {
	if !f.done {
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			f.buf.Write(p[:i])
			f.done = true
		} else if f.buf.Len() < 4096 {
			f.buf.Write(p)
		}
	}
	return f.w.Write(p)
}

// runJSONAware runs a command; with -json, an error status and nothing
// on standard output, it prints the error object described above.
func runJSONAware(run func([]string, io.Writer, io.Writer) int, name string, args []string, stdout, stderr io.Writer) int {
	if !wantsJSON(args) {
		return run(args, stdout, stderr)
	}
	out := &countWriter{w: stdout}
	errw := &firstLineWriter{w: stderr}
	code := run(args, out, errw)
	if code != 0 && out.n == 0 {
		msg := strings.TrimPrefix(errw.buf.String(), "musket "+name+": ")
		if msg == "" {
			msg = "the command ended with no answer"
		}
		b, _ := json.Marshal(map[string]any{"status": "error", "error": msg, "exit_status": code})
		stdout.Write(append(b, '\n'))
	}
	return code
}
