package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestByteOrderMark: every input that musket reads may begin with a UTF-8
// byte order mark, as some editors write it. The litmus parser skipped it;
// the CAT, Cubicle and .pts parsers, file lists, diff and merge refused it
// ("unexpected character '\ufeff'"), and an -expect file silently missed
// its first row (agreement 0/0, exit 0; robust7). Each row is checked with
// and without the mark: the same exit status and output.
func TestByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	bom := "\xef\xbb\xbf"
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	abs, err := filepath.Abs(sbTest)
	if err != nil {
		t.Fatal(err)
	}
	var json strings.Builder
	if code := dispatch([]string{"litmus", "-json", sbTest}, &json, &strings.Builder{}); code != exitOK {
		t.Fatalf("litmus -json: exit %d", code)
	}
	tests := []struct {
		name string
		file string // the input's name in dir
		text string // its text, without the mark
		args func(file string) []string
		code int
	}{
		{"cat model", "m.cat", read("../../internal/cat/models/tso.cat"), func(f string) []string { return []string{"litmus", "-model", f, sbTest} }, exitOK},
		{"litmus test", "SB.litmus", read(sbTest), func(f string) []string { return []string{"litmus", f} }, exitOK},
		{"list of tests", "list.txt", abs + "\n", func(f string) []string { return []string{"litmus", "@" + f} }, exitOK},
		{"expect", "exp.csv", "SB.litmus,0\n", func(f string) []string { return []string{"litmus", "-expect", f, sbTest} }, exitFailed},
		{"cubicle", "s.cub", read("testdata/param_intlin.cub"), func(f string) []string { return []string{"param", f} }, -1},
		{"pts", "mp.pts", read("testdata/bench_c/mp.pts"), func(f string) []string { return []string{"check", "-model", "tso", f} }, exitOK},
		{"diff", "r.json", json.String(), func(f string) []string { return []string{"diff", f, f} }, exitOK},
		{"merge", "m.json", json.String(), func(f string) []string { return []string{"merge", f} }, exitOK},
	}
	for _, tc := range tests {
		var outs [2]string
		var codes [2]int
		for i, mark := range []string{"", bom} {
			p := write(tc.name+"-"+string(rune('0'+i))+"-"+tc.file, mark+tc.text)
			var out, errOut strings.Builder
			codes[i] = dispatch(tc.args(p), &out, &errOut)
			outs[i] = strings.ReplaceAll(out.String(), p, "FILE") + errOut.String()
			if tc.code >= 0 && codes[i] != tc.code {
				t.Errorf("%s (mark %v): exit %d, want %d\n%s", tc.name, i == 1, codes[i], tc.code, outs[i])
			}
		}
		if codes[0] != codes[1] || codes[1] == exitBadInput {
			t.Errorf("%s: exit %d without the mark, %d with it\n%s", tc.name, codes[0], codes[1], outs[1])
		}
	}
}
