package enum_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkLKMMSlow runs the slowest tests of the shared LKMM folder
// under one engine (MUSKET_BENCH_ENGINE, default enum; MUSKET_BENCH_TESTS
// a comma-separated list of paths under litmus/LKMM replaces the list;
// MUSKET_BENCH_SPEEDCHECK the explicit engine's -speedcheck).
func BenchmarkLKMMSlow(b *testing.B) {
	corpus := testcorpus.Dir(b)
	opts := kernelOptions(corpus)
	opts.Engine, opts.Timeout = os.Getenv("MUSKET_BENCH_ENGINE"), 120*time.Second
	if opts.Engine == "" {
		opts.Engine = "enum"
	}
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
	var files []string
	for _, name := range names {
		files = append(files, corpus+"/litmus/LKMM/"+name+".litmus")
	}
	benchEach(b, files, opts)
}
