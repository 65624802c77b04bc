package report

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// TestAppendCenti compares appendCenti with strconv's 'f' format with
// precision 2 (what it replaces) on durations as results carry them,
// random values over its whole range and by magnitude, ties (odd
// multiples of 1/200 that are exact in binary, as 0.125), their
// neighbours, and the values it hands to strconv.
func TestAppendCenti(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var vals []float64
	for range 300000 {
		vals = append(vals, time.Duration(rng.Int64N(int64(100*time.Second))).Seconds())
		vals = append(vals, time.Duration(rng.Int64N(int64(20*time.Millisecond))).Seconds())
		vals = append(vals, rng.Float64()*(1<<40))
		vals = append(vals, math.Ldexp(rng.Float64(), rng.IntN(100)-60))
	}
	for k := range 20000 {
		tie := float64(2*k+1) / 8 // x.125, x.375, ...: exact ties in hundredths
		vals = append(vals, tie, math.Nextafter(tie, 0), math.Nextafter(tie, 1e300))
		c := float64(k) / 100
		vals = append(vals, c, math.Nextafter(c, 0), math.Nextafter(c, 1e300), c+0.005, c+0.0049999, c+0.0050001)
	}
	vals = append(vals, 0, math.Copysign(0, -1), -1.5, math.NaN(), math.Inf(1), math.Inf(-1), 1<<40, math.Nextafter(1<<40, 0),
		math.SmallestNonzeroFloat64, 0.005, 0.015, 0.025, 1e-300, 0.994999, 0.995, 0.9950001, 99.995)
	for _, v := range vals {
		want := strconv.AppendFloat(nil, v, 'f', 2, 64)
		if got := appendCenti(nil, v); string(got) != string(want) {
			t.Fatalf("%v (%b): got %s, strconv %s", v, v, got, want)
		}
	}
}
