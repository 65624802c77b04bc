package cat

import "testing"

// benchCheck measures one Check of SB's relaxed execution.
func benchCheck(b *testing.B, m *Model, x *Execution) {
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if err := m.Check(x, CheckOptions{}, func(Outcome) bool { n++; return true }); err != nil || n == 0 {
			b.Fatalf("err %v, %d outcomes", err, n)
		}
	}
}

func BenchmarkCheckHerdX86TSO(b *testing.B) {
	m, err := Load(herdDir+"x86tso.cat", LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	benchCheck(b, m, build(t, shapes[0].exec).withoutCo())
}

func BenchmarkCheckHerdX86TSOTwoWrites(b *testing.B) {
	m, err := Load(herdDir+"x86tso.cat", LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	// 2+2W without pinned final writes: two coherence orders per location.
	te := shapes[6].exec
	te.final = nil
	benchCheck(b, m, build(t, te).withoutCo())
}

func BenchmarkCheckBuiltinTSO(b *testing.B) {
	m, err := LoadBuiltin("tso")
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	benchCheck(b, m, build(t, shapes[0].exec).x)
}

func BenchmarkCheckDat3mTSO(b *testing.B) {
	m, err := Load(dat3mDir+"tso.cat", LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	benchCheck(b, m, build(t, shapes[0].exec).x)
}

// BenchmarkCheckHerdX86TSOVaryingRF alternates two candidate executions
// of SB that differ in rf, as an enumerator gives them: what depends on
// rf is recomputed each time, the rest comes from the memo.
func BenchmarkCheckHerdX86TSOVaryingRF(b *testing.B) {
	m, err := Load(herdDir+"x86tso.cat", LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	xs := []*Execution{build(t, shapes[0].exec).withoutCo(), build(t, shapes[1].exec).withoutCo()}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := m.Check(xs[i&1], CheckOptions{}, func(Outcome) bool { return true }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckHerdX86TSONoMemo is the cost without reuse: every Check
// sees a new program (a new number of events defeats the memo).
func BenchmarkCheckHerdX86TSONoMemo(b *testing.B) {
	m, err := Load(herdDir+"x86tso.cat", LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	sb := shapes[0].exec
	sb3 := sb
	sb3.locs = []string{"x", "y", "z"}
	xs := []*Execution{build(t, sb).withoutCo(), build(t, sb3).withoutCo()}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := m.Check(xs[i&1], CheckOptions{}, func(Outcome) bool { return true }); err != nil {
			b.Fatal(err)
		}
	}
}
