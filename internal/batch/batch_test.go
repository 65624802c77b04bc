package batch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/result"
)

const sb = `X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)
`

func TestRunKeepsOrderAndReportsBadInput(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a.litmus", "b.litmus", "c.litmus", "d.litmus"}
	for i, n := range names {
		src := sb
		if i == 2 {
			src = "X86 bad\n{}\n P0 ;\n NOPE ;\nexists (x=1)\n"
		}
		os.WriteFile(filepath.Join(dir, n), []byte(src), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a test"), 0o644)
	files, err := driver.Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files %v", files)
	}
	tests := []struct {
		model string
		ok    bool
	}{{"tso", true}, {"sc", false}}
	for _, tc := range tests {
		var got []Job
		Run(context.Background(), files, Options{Model: tc.model, Jobs: 3, Timeout: time.Minute}, func(j Job) { got = append(got, j) })
		if len(got) != 4 {
			t.Fatalf("%d jobs", len(got))
		}
		for i, j := range got {
			if j.Index != i || filepath.Base(j.Path) != names[i] {
				t.Errorf("job %d out of order: %d %s", i, j.Index, j.Path)
			}
			if i == 2 {
				if j.Err == nil {
					t.Errorf("bad test gave no error")
				}
				continue
			}
			if j.Err != nil || j.Result.Status != result.Done || j.Result.Ok() != tc.ok {
				t.Errorf("%s under %s: %+v %v", j.Path, tc.model, j.Result, j.Err)
			}
		}
	}
}

// TestUnknownModel: a model that does not load is every test's error.
func TestUnknownModel(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.litmus")
	os.WriteFile(f, []byte(sb), 0o644)
	for _, model := range []string{"nosuchmodel", "/nonexistent/m.cat"} {
		Run(context.Background(), []string{f}, Options{Model: model}, func(j Job) {
			if j.Err == nil {
				t.Errorf("-model %s: no error", model)
			}
		})
	}
}

// TestModelLoadedOnce: a model the driver already loaded
// (Options.ModelLoaded) is taken as it is, not read from its file again
// (robust5: a user's model was loaded twice per run). Here the file is
// gone: a second load would fail every test.
func TestModelLoadedOnce(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.litmus")
	os.WriteFile(f, []byte(sb), 0o644)
	mf := filepath.Join(dir, "m.cat")
	os.WriteFile(mf, []byte("m\nacyclic po | rf | co | fr as sc\n"), 0o644)
	m, err := driver.Models{Model: mf}.CheckLoad()
	if err != nil || m == nil {
		t.Fatalf("CheckLoad: %v, %v", m, err)
	}
	os.Remove(mf)
	n := 0
	Run(context.Background(), []string{f}, Options{Model: mf, ModelLoaded: m}, func(j Job) {
		n++
		if j.Err != nil || j.Result == nil || j.Result.Status != result.Done || j.Result.Ok() {
			t.Errorf("SB under SC: %+v %v", j.Result, j.Err)
		}
	})
	if n != 1 {
		t.Errorf("%d jobs", n)
	}
}

// TestUnsupportedIsNotBadInput: a valid test using a feature Musket does
// not handle is reported as unsupported (a limit, by name and with the
// front-end's error), a malformed one as an error of the input.
func TestUnsupportedIsNotBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, src   string
		unsupported bool
	}{
		{"mul", "RISCV mul\n{ 0:x6=2; 0:x7=3; }\n P0 ;\n mul x5,x6,x7 ;\nexists (0:x5=6)\n", true},
		{"nope", "X86 nope\n{}\n P0 ;\n NOPE ;\nexists (x=1)\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".litmus")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var got Job
			Run(context.Background(), []string{path}, Options{Jobs: 1}, func(j Job) { got = j })
			switch {
			case tc.unsupported && (got.Err != nil || got.Result == nil || got.Result.Status != result.Unsupported || got.Result.Err == nil || got.Result.Name != tc.name):
				t.Fatalf("want unsupported with its error; got err %v, result %+v", got.Err, got.Result)
			case !tc.unsupported && got.Err == nil:
				t.Fatalf("want an input error; got result %+v", got.Result)
			}
		})
	}
}

func TestWorkers(t *testing.T) {
	for _, c := range []struct{ jobs, n, want int }{
		{10000000, 1, 1}, {4, 10, 4}, {1000, 5000, MaxWorkers}, {3, 0, 1}, {0, 1, 1},
	} {
		if got := Workers(c.jobs, c.n); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.jobs, c.n, got, c.want)
		}
	}
}
