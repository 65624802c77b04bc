package enum_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkLKMMSlow runs the slowest tests of the shared LKMM folder
// under one engine (MUSKET_BENCH_ENGINE, default enum; MUSKET_BENCH_TESTS
// a comma-separated list of paths under litmus/LKMM replaces the list;
// MUSKET_BENCH_SPEEDCHECK the explicit engine's -speedcheck).
func BenchmarkLKMMSlow(b *testing.B) {
	corpus := testcorpus.Dir(b)
	linux := corpus + "/cat/linux/"
	engine := os.Getenv("MUSKET_BENCH_ENGINE")
	if engine == "" {
		engine = "enum"
	}
	opts := batch.Options{Model: linux + "linux-kernel.cat", Bell: linux + "linux-kernel.bell",
		Macros: linux + "linux-kernel.def", IncludeDirs: []string{corpus + "/cat/herd"},
		Variants: map[string]bool{"lkmmv2": true}, Jobs: 1, Engine: engine, Timeout: 120 * time.Second}
	names := []string{
		"lockfree/aba-array",
		"lockfree/aba-rcu-simple",
		"manual/absperf/C-SB+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u+l-o-o-u-CE",
		"manual/kernel/C-ManfredSpraul-L1G2xchg",
	}
	if s := os.Getenv("MUSKET_BENCH_SPEEDCHECK"); s != "" {
		sc, err := enum.ParseSpeedCheck(s)
		if err != nil {
			b.Fatal(err)
		}
		opts.SpeedCheck = sc
	}
	if s := os.Getenv("MUSKET_BENCH_TESTS"); s != "" {
		names = strings.Split(s, ",")
	}
	for _, name := range names {
		file := corpus + "/litmus/LKMM/" + name + ".litmus"
		b.Run(name[strings.LastIndexByte(name, '/')+1:], func(b *testing.B) {
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
