package enum_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkLKMM runs the explicit engine on Linux-kernel tests as kernel
// developers run herd7 (the kernel's model, bell, macros and variant
// lkmmv2), one sub-benchmark per test: the many-thread RCU tests whose
// rf candidates dominate the suite's time, and a lock test. Profile with
//
//	go test ./internal/enum -run X -bench LKMM/C-RR -cpuprofile cpu.out
func BenchmarkLKMM(b *testing.B) {
	corpus := testcorpus.Dir(b)
	opts := kernelOptions(corpus)
	var files []string
	for _, name := range []string{
		"C-RR-G+RR-R+RR-G+RR-R+RR-R+RR-G+RR-R",
		"C-LB-GRR+R-Dd+R-Dd+R-Dd+R-Dd",
		"C-RR-G+RR-G+RR-G+RR-G+RR-G+RR-G+RR-R",
		"C-RW-R+RW-R+RW-G+RW-G+RW-G+RW-G+RW-R+RW-R+RW-R+RW-R",
	} {
		files = append(files, corpus+"/litmus/LKMM/auto/"+name+".litmus")
	}
	benchEach(b, files, opts)
}

// kernelOptions runs tests as kernel developers run herd7: the kernel's
// model, bell, macros and variant lkmmv2, one test at a time.
func kernelOptions(corpus string) batch.Options {
	linux := corpus + "/cat/linux/"
	return batch.Options{Model: linux + "linux-kernel.cat", Bell: linux + "linux-kernel.bell",
		Macros: linux + "linux-kernel.def", IncludeDirs: []string{corpus + "/cat/herd"},
		Variants: map[string]bool{"lkmmv2": true}, Jobs: 1}
}

// benchEach runs one sub-benchmark per file (named after it), failing on
// any error of the test or of its run.
func benchEach(b *testing.B, files []string, opts batch.Options) {
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".litmus")
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				batch.Run(context.Background(), []string{file}, opts, func(j batch.Job) {
					if j.Err != nil || j.Result == nil || j.Result.Err != nil {
						b.Fatalf("%s: %v %+v", name, j.Err, j.Result)
					}
				})
			}
		})
	}
}

// BenchmarkSuite runs the explicit engine over whole architecture
// folders of the corpus (X86, PPC), one test at a time, under each
// architecture's default model: the work of `musket litmus -engine enum
// -j 1`. Profile cat's evaluation with
//
//	go test ./internal/enum -run X -bench Suite/PPC -cpuprofile cpu.out
func BenchmarkSuite(b *testing.B) {
	corpus := testcorpus.Dir(b)
	for _, arch := range []string{"X86", "PPC"} {
		files, _ := filepath.Glob(filepath.Join(corpus, "litmus", arch, "*.litmus"))
		b.Run(arch, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				batch.Run(context.Background(), files, batch.Options{Jobs: 1}, func(j batch.Job) {
					if j.Err != nil || j.Result == nil {
						b.Fatalf("%s: %v", j.Path, j.Err)
					}
				})
			}
		})
	}
}
