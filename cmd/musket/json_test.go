package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// jsonSchemas reads the tables of docs/json.md: for each section title,
// the fields that are always present and their JSON types.
func jsonSchemas(t *testing.T) map[string]map[string]string {
	t.Helper()
	f, err := os.Open("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if title, ok := strings.CutPrefix(line, "## "); ok {
			section = title
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if section == "" || len(cells) != 2 || !strings.HasPrefix(line, "|") {
			continue
		}
		field, typ := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if field == "field" || strings.HasPrefix(field, "---") {
			continue
		}
		if out[section] == nil {
			out[section] = map[string]string{}
		}
		out[section][field] = typ
	}
	return out
}

// jsonType is the docs' name of the JSON type of v.
func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}

// TestJSONSchema runs every command with -json on good and malformed
// input: stdout is JSON Lines only, and each object has the fields
// docs/json.md says are always there, with their types.
func TestJSONSchema(t *testing.T) {
	schemas := jsonSchemas(t)
	for _, s := range []string{"Error object (every command)", "litmus: one object per test", "litmus: summary (last line)",
		"check: one object per program (.pts, .litmus)", "check: one object per C program", "check: summary (last line)",
		"compare: one object per check", "param: one object", "prove: one object per test",
		"bench: one object per cell", "bench: summary (last line)"} {
		if len(schemas[s]) == 0 {
			t.Fatalf("docs/json.md has no table for %q", s)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.litmus")
	os.WriteFile(bad, []byte("X86 bad\n{ x=0; }\n P0 ;\n NOPE [x] ;\nexists (0:EAX=1)\n"), 0o644)
	badPts := filepath.Join(dir, "bad.pts")
	os.WriteFile(badPts, []byte("program {\n"), 0o644)
	badCub := filepath.Join(dir, "bad.cub")
	os.WriteFile(badCub, []byte("var X : \n"), 0o644)
	cases := []struct {
		name string
		args []string
		kind func(obj map[string]any) string // the section an object must match
	}{
		{"litmus", []string{"litmus", "-json", sbTest, bad}, func(o map[string]any) string {
			if _, ok := o["summary"]; ok {
				return "litmus: summary (last line)"
			}
			return "litmus: one object per test"
		}},
		{"check", []string{"check", "-json", "-model", "pso", "-bound", "1", "../../examples/asm/mp.litmus", "testdata/bench_c/mp.pts", badPts}, func(o map[string]any) string {
			if _, ok := o["summary"]; ok {
				return "check: summary (last line)"
			}
			return "check: one object per program (.pts, .litmus)"
		}},
		{"check C", []string{"check", "-json", "-model", "rc11", "-bound", "1", filepath.Join(dir, "missing.c")}, func(o map[string]any) string {
			if _, ok := o["summary"]; ok {
				return "check: summary (last line)"
			}
			return "check: one object per C program"
		}},
		{"compare", []string{"compare", "-json", "-source", "sc", "-target", "tso", sbTest, bad}, func(o map[string]any) string {
			return "compare: one object per check"
		}},
		{"prove", []string{"prove", "-json", "-model", "tso", "../../examples/asm/mp.litmus", bad}, func(o map[string]any) string {
			return "prove: one object per test"
		}},
		{"param bad", []string{"param", "-json", badCub}, func(o map[string]any) string { return "param: one object" }},
	}
	// The bench suites: bench c with fake checks (one cell an error), the
	// others on an empty folder (every cell an error, or the first).
	cdir, empty := filepath.Join(dir, "c"), filepath.Join(dir, "empty")
	os.MkdirAll(cdir, 0o755)
	os.MkdirAll(empty, 0o755)
	os.WriteFile(filepath.Join(cdir, "expected.csv"), []byte("program,model,verdict\nlock.c,rc11,safe\nlock.c,tso,safe\n"), 0o644)
	os.WriteFile(filepath.Join(cdir, "lock.c"), []byte("int main(void) { return 0; }\n"), 0o644)
	defer func(old func(string, cColumn, cCheckOptions) cCell) { benchCCheck = old }(benchCCheck)
	benchCCheck = func(path string, col cColumn, o cCheckOptions) cCell {
		if col.title == "tso" {
			return cCell{Verdict: cError, Note: "lock.c:1:1: bad"}
		}
		return cCell{Verdict: cSafe, Time: 10 * time.Millisecond}
	}
	benchKind := func(o map[string]any) string {
		if _, ok := o["summary"]; ok {
			return "bench: summary (last line)"
		}
		return "bench: one object per cell"
	}
	cases = append(cases, []struct {
		name string
		args []string
		kind func(obj map[string]any) string
	}{
		{"bench c bad", []string{"bench", "c", "-json", "-dir", cdir, "-models", "rc11,tso"}, benchKind},
		{"bench cubicle bad", []string{"bench", "cubicle", "-json", "-dir", empty, "-timeout", "5s"}, benchKind},
		{"bench mutex bad", []string{"bench", "mutex", "-json", "-dir", empty, "-timeout", "5s"}, benchKind},
		{"bench porthos bad", []string{"bench", "porthos", "-json", "-dir", empty, "-timeout", "5s"}, benchKind},
		{"bench asm bad", []string{"bench", "asm", "-json", "-dir", empty}, benchKind},
	}...)
	if c := testcorpus.Path(); fileExists(filepath.Join(c, "cubicle", "litmus_sb_us.cub")) {
		cases = append(cases, struct {
			name string
			args []string
			kind func(obj map[string]any) string
		}{"param", []string{"param", "-json", "-v", filepath.Join(c, "cubicle", "litmus_sb_us.cub")}, func(o map[string]any) string { return "param: one object" }})
	}
	if os.Getenv("MUSKET_LONG") != "" {
		// clang and the invariant method take seconds each.
		cases = append(cases, struct {
			name string
			args []string
			kind func(obj map[string]any) string
		}{"check C pass", []string{"check", "-json", "-model", "rc11", "-bound", "1", "../../internal/cfront/testdata/mp_rlx.c"}, func(o map[string]any) string {
			if _, ok := o["summary"]; ok {
				return "check: summary (last line)"
			}
			return "check: one object per C program"
		}})
	} else {
		cases = slices.DeleteFunc(cases, func(c struct {
			name string
			args []string
			kind func(obj map[string]any) string
		}) bool {
			return c.name == "prove"
		})
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		dispatch(c.args, &out, &errb)
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			t.Errorf("%s: no JSON on stdout (stderr %s)", c.name, errb.String())
			continue
		}
		sawError := false
		for _, line := range lines {
			var obj map[string]any
			if err := json.Unmarshal([]byte(line), &obj); err != nil {
				t.Errorf("%s: stdout line is not JSON: %.200s", c.name, line)
				continue
			}
			section := c.kind(obj)
			if s, ok := obj["summary"].(map[string]any); ok {
				obj = s
			} else if obj["status"] == "error" && obj["exit_status"] != nil {
				section = "Error object (every command)"
				sawError = true
			} else if obj["status"] == "error" {
				sawError = true
			}
			for field, typ := range schemas[section] {
				v, ok := obj[field]
				if !ok {
					t.Errorf("%s: %s: field %q missing in %.300s", c.name, section, field, line)
				} else if jsonType(v) != typ {
					t.Errorf("%s: %s: field %q is %s, docs/json.md says %s", c.name, section, field, jsonType(v), typ)
				}
			}
		}
		if strings.Contains(strings.Join(c.args, " "), "bad") || strings.Contains(strings.Join(c.args, " "), "missing") {
			if !sawError {
				t.Errorf("%s: the malformed file gives no object with \"status\":\"error\":\n%s", c.name, out.String())
			}
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
