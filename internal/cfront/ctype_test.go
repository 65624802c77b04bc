package cfront

import "testing"

// TestCtypeTables compares the three <ctype.h> tables with glibc's: the
// sums of entry × (c + 129) over c = -128..255, of a native run's dump of
// (*__ctype_b_loc())[c], (*__ctype_toupper_loc())[c] and
// (*__ctype_tolower_loc())[c] (glibc 2.35, "C" locale; every entry was
// also compared one by one when the tables were written).
func TestCtypeTables(t *testing.T) {
	var b, up, lo int64
	for c := -128; c < 256; c++ {
		w := int64(c + 129)
		b += ctypeClass(c) * w
		up += ctypeMap(c, false) * w
		lo += ctypeMap(c, true) * w
	}
	for _, x := range []struct {
		name      string
		got, want int64
	}{{"class", b, 1011156395}, {"toupper", up, 11294816}, {"tolower", lo, 11665056}} {
		if x.got != x.want {
			t.Errorf("%s table: sum %d, glibc's %d", x.name, x.got, x.want)
		}
	}
}
