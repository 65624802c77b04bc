package serve

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/lazyre"
	"github.com/musket-verify/musket/internal/playground"
)

// runCommand runs check, param or compare on the request's texts, written
// to a folder of the server's own (removed afterwards) under names the
// server chooses from the request's base names.
func (s *Server) runCommand(ctx context.Context, req *playground.Request) *playground.Response {
	start := time.Now()
	resp := &playground.Response{Engine: req.Engine}
	name := req.TestName()
	bad := func(msg string) *playground.Response {
		resp.Status, resp.Exit, resp.Output = "error", 2, msg+"\n"
		// A refused include is marked at its line, as the command's
		// own errors are.
		resp.Diags = playground.Diags(msg, name, req)
		return resp
	}
	kind := strings.ToLower(filepath.Ext(name))
	switch req.Command {
	case "param":
		if kind != ".cub" {
			return bad("param checks a Cubicle system: name it FILE.cub")
		}
	case "check", "compare":
		switch kind {
		case ".pts", ".litmus", ".c":
		default:
			return bad(req.Command + " takes a .pts program, an assembly .litmus test or a C program (.c)")
		}
		if kind == ".c" {
			if err := checkCIncludes(req.Test); err != nil {
				return bad(name + ":" + err.Error())
			}
		}
	}
	dir, err := os.MkdirTemp("", "musket-serve-")
	if err != nil {
		return bad("cannot make a working folder: " + err.Error())
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(req.Test), 0o600); err != nil {
		return bad(err.Error())
	}
	secs := strconv.FormatFloat(s.cfg.Timeout.Seconds(), 'f', -1, 64)
	args := []string{"-timeout", secs}
	model := req.Model
	for _, v := range []struct{ flag, value string }{{"model", req.Model}, {"source", req.Source}, {"target", req.Target}} {
		if err := s.checkModelNames(v.flag, v.value); err != nil {
			return bad(err.Error())
		}
	}
	if req.Cat != "" && req.Command != "param" {
		files := mergeFiles(req)
		for n := range files {
			// Only CAT files go into the folder the command runs in: a
			// header there (stdatomic.h) would be what the program's
			// #include "stdatomic.h" reads, unchecked, and a file named
			// as the test would replace it.
			if !strings.HasSuffix(n, ".cat") || n == name {
				return bad(fmt.Sprintf("file %q: the model's files must be CAT files (NAME.cat)", n))
			}
		}
		// The model is loaded from the folder by the command, which would
		// follow an include of a path; loaded here first as text (the
		// loader the playground's litmus runs use), an include of anything
		// but a file given or built in is refused, however the include
		// is written (a comment between include and its name escaped
		// checkCatIncludes' pattern, and the file was read).
		texts := map[string][]byte{}
		for n, text := range files {
			texts[n] = []byte(text)
		}
		if _, err := cat.LoadText(req.CatFile(), texts, cat.LoadOptions{LibDirs: s.cfg.LibDirs}); err != nil {
			return bad(err.Error())
		}
		for n, text := range files {
			if err := checkCatIncludes(n, text); err != nil {
				return bad(err.Error())
			}
			if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o600); err != nil {
				return bad(err.Error())
			}
		}
		model = filepath.Join(dir, req.CatFile())
	}
	switch req.Command {
	case "check":
		if model != "" {
			args = append(args, "-model", model)
		}
		if req.Target != "" {
			args = append(args, "-target", req.Target)
		}
		if req.Engine != "" {
			args = append(args, "-engine", req.Engine)
		}
		if req.Explain {
			args = append(args, "-explain")
		}
		if req.Variant != "" {
			args = append(args, "-variant", req.Variant)
		}
	case "compare":
		if req.Source == "" || req.Target == "" {
			return bad("compare needs a source and a target (target:model, model or target)")
		}
		args = append(args, "-source", req.Source, "-target", req.Target)
	case "param":
		if model != "" {
			args = append(args, "-model", model)
		}
	}
	if req.Bound > 0 && req.Command != "param" {
		args = append(args, "-bound", strconv.Itoa(req.Bound))
	}
	args = append(args, file)
	var out, errOut bytes.Buffer
	code := s.cfg.Command(ctx, req.Command, args, &out, &errOut)
	clean := func(b *bytes.Buffer) string {
		return strings.ReplaceAll(b.String(), dir+string(filepath.Separator), "")
	}
	resp.Output, resp.Stderr = clean(&out), clean(&errOut)
	resp.Exit = code
	resp.TimeMS = float64(time.Since(start).Microseconds()) / 1000
	switch code {
	case 0, 1:
		resp.Status = "done"
	case 3:
		resp.Status = "limit"
	case 130:
		resp.Status = "canceled"
	default:
		resp.Status = "error"
	}
	if ctx.Err() != nil && code != 0 && code != 1 {
		resp.Status = "canceled"
	}
	resp.Diags = playground.Diags(resp.Output+"\n"+resp.Stderr, name, req)
	return resp
}

// mergeFiles is the request's CAT files by base name, the model's own
// among them.
func mergeFiles(req *playground.Request) map[string]string {
	out := map[string]string{}
	for n, t := range req.Files {
		out[filepath.Base(n)] = t
	}
	out[req.CatFile()] = req.Cat
	return out
}

var catInclude = lazyre.New(`include\s*"([^"]*)"`)

// checkCatIncludes refuses an include of anything but a bare file name:
// the model is read from the server's folder, and must read nothing
// outside it but the built-in files.
func checkCatIncludes(name, text string) error {
	for _, m := range catInclude.FindAllStringSubmatchIndex(text, -1) {
		inc := text[m[2]:m[3]]
		if inc == "" || inc == "." || inc == ".." || strings.ContainsAny(inc, `/\`) {
			line := 1 + strings.Count(text[:m[0]], "\n")
			return fmt.Errorf("%s:%d:1: cannot include %q: only a file given by name, or one of Musket's built-in files, may be included", name, line, inc)
		}
	}
	return nil
}

// checkModelNames refuses a model named by the client (-model, or the
// model of compare's -source and -target, target:model) that would be
// read from a file the operator did not choose: a path, or a bare .cat
// name, which the command line reads from the current folder when a file
// has it, that is neither in a library folder of the operator's
// (-set-libdir) nor a herd7 library name Musket answers with a built-in
// model. (A model named "secret.cat" was read from the server's folder.)
func (s *Server) checkModelNames(flag, value string) error {
	for _, name := range strings.Split(value, ":") {
		if strings.ContainsAny(name, `/\`) {
			return fmt.Errorf("%s %q: name a built-in model, not a path", flag, value)
		}
		if !strings.HasSuffix(name, ".cat") {
			continue // a built-in model's or a target's name
		}
		if _, ok := cat.LibraryModel(name); ok {
			continue
		}
		found := false
		for _, d := range s.cfg.LibDirs {
			if st, err := os.Stat(filepath.Join(d, name)); err == nil && !st.IsDir() {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("%s %q: %s is no built-in model, no herd7 library model Musket answers, and not in the server's library folders", flag, value, name)
		}
	}
	return nil
}
