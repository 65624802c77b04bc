package herdhash

import "strings"

// The matchers below read the few patterns of herd7's text this package
// needs. They are written by hand, not with package regexp, so that the
// playground's WebAssembly engine links no regular-expression engine: in
// the browser, regexp's code, its compilation of the patterns at start-up
// and the Unicode tables it pulls in are code V8 must compile before the
// first answer. Each matcher documents the regular expression it stands
// for (RE2 syntax: \s is [\t\n\f\r ], \w is [0-9A-Za-z_], \d is [0-9])
// and returns what that expression's leftmost-first match returns;
// match_test.go checks them against package regexp.

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// skip returns the first position from i whose byte is not in class.
func skip(s string, i int, class func(byte) bool) int {
	for i < len(s) && class(s[i]) {
		i++
	}
	return i
}

// isWordBoundary is \b at i: a \w on one side and not on the other.
func isWordBoundary(s string, i int) bool {
	before := i > 0 && isWord(s[i-1])
	after := i < len(s) && isWord(s[i])
	return before != after
}

// matchLabelDef is ^([A-Za-z_][\w.]*)\s*:\s* : the label a cell starts
// with and the length of "label:" with its spaces.
func matchLabelDef(c string) (label string, end int, ok bool) {
	if c == "" || !(isLetter(c[0]) || c[0] == '_') {
		return "", 0, false
	}
	i := skip(c, 1, func(b byte) bool { return isWord(b) || b == '.' })
	label = c[:i]
	i = skip(c, i, isSpace)
	if i >= len(c) || c[i] != ':' {
		return "", 0, false
	}
	return label, skip(c, i+1, isSpace), true
}

// matchMem is ^(-?\w*)\((\w+)\)$ : an address "d(rA)", its displacement
// (maybe empty) and its register.
func matchMem(s string) (disp, reg string, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	i = skip(s, i, isWord)
	if i >= len(s) || s[i] != '(' {
		return "", "", false
	}
	j := skip(s, i+1, isWord)
	if j == i+1 || j != len(s)-1 || s[j] != ')' {
		return "", "", false
	}
	return s[:i], s[i+1 : j], true
}

// matchCProcHead is ^(?:static\s+)?(?:void\s+)?P(\d+)\s*\( : a C
// thread's head; proc is the thread's number, end the length of the head.
func matchCProcHead(s string) (proc string, end int, ok bool) {
	i := 0
	for _, word := range []string{"static", "void"} {
		if strings.HasPrefix(s[i:], word) {
			if j := skip(s, i+len(word), isSpace); j > i+len(word) {
				i = j
			}
		}
	}
	if i >= len(s) || s[i] != 'P' {
		return "", 0, false
	}
	j := skip(s, i+1, isDigit)
	if j == i+1 {
		return "", 0, false
	}
	k := skip(s, j, isSpace)
	if k >= len(s) || s[k] != '(' {
		return "", 0, false
	}
	return s[i+1 : j], k + 1, true
}

// matchAtomicInit is ^ATOMIC_INIT\s*\(\s*(.*?)\s*\)$ : the value of the
// kernel's ATOMIC_INIT(v).
func matchAtomicInit(s string) (string, bool) {
	if !strings.HasPrefix(s, "ATOMIC_INIT") {
		return "", false
	}
	i := skip(s, len("ATOMIC_INIT"), isSpace)
	if i >= len(s) || s[i] != '(' || s[len(s)-1] != ')' || len(s)-1 <= i {
		return "", false
	}
	i = skip(s, i+1, isSpace)
	if i > len(s)-1 {
		return "", false
	}
	v := strings.TrimRight(s[i:len(s)-1], " \t\n\f\r")
	if strings.IndexByte(v, '\n') >= 0 { // . is not \n
		return "", false
	}
	return v, true
}

// matchTypedLoc is
//
//	^(.*?)\s*(\*?)\s*((?:P?\d+\s*:\s*)?[A-Za-z_%\[][\w.\]]*)\s*(?:\[\s*(\d+)\s*\])?$
//
// an initial state's left-hand side "type *loc[size]": its type, its
// '*', its location and its size. The type is the shortest prefix (lazy,
// and without a newline) after which the rest matches. In the rest, every
// repetition is followed by a byte its class does not hold, so only its
// longest run can lead to a match, and the '*' can only be taken when it
// is there: one try per prefix.
func matchTypedLoc(s string) (ty, star, name, size string, ok bool) {
	for k := 0; k <= len(s); k++ {
		if k > 0 && s[k-1] == '\n' {
			break
		}
		p := skip(s, k, isSpace)
		q := p
		if q < len(s) && s[q] == '*' {
			q++
		}
		r := skip(s, q, isSpace)
		if e, sz, ok := typedLocRest(s, r); ok {
			return s[:k], s[p:q], s[r:e], sz, true
		}
	}
	return "", "", "", "", false
}

// typedLocRest matches the location from r to the end of s: the optional
// "P?\d+\s*:\s*" is tried first, then the location without it. It
// returns the location's end and the size.
func typedLocRest(s string, r int) (end int, size string, ok bool) {
	if v, ok := threadPrefix(s, r); ok {
		if e, sz, ok := typedLocName(s, v); ok {
			return e, sz, true
		}
	}
	return typedLocName(s, r)
}

// threadPrefix matches P?\d+\s*:\s* at i and returns its end. The 'P' is
// taken when there; when the rest fails with it, the digits cannot start
// at the 'P'.
func threadPrefix(s string, i int) (int, bool) {
	if i < len(s) && s[i] == 'P' {
		i++
	}
	j := skip(s, i, isDigit)
	if j == i {
		return 0, false
	}
	j = skip(s, j, isSpace)
	if j >= len(s) || s[j] != ':' {
		return 0, false
	}
	return skip(s, j+1, isSpace), true
}

// typedLocName matches [A-Za-z_%\[][\w.\]]*\s*(?:\[\s*(\d+)\s*\])?$ at i.
func typedLocName(s string, i int) (end int, size string, ok bool) {
	if i >= len(s) || !(isLetter(s[i]) || s[i] == '_' || s[i] == '%' || s[i] == '[') {
		return 0, "", false
	}
	e := skip(s, i+1, func(b byte) bool { return isWord(b) || b == '.' || b == ']' })
	f := skip(s, e, isSpace)
	if f == len(s) {
		return e, "", true
	}
	if s[f] != '[' {
		return 0, "", false
	}
	g := skip(s, f+1, isSpace)
	h := skip(s, g, isDigit)
	if h == g {
		return 0, "", false
	}
	if m := skip(s, h, isSpace); m == len(s)-1 && s[m] == ']' {
		return e, s[g:h], true
	}
	return 0, "", false
}

// matchLocationsList is (?s)locations\s*\[(.*?)\] : the leftmost
// locations list, its extent in cond and its items.
func matchLocationsList(cond string) (whole, items string, ok bool) {
	for from := 0; ; {
		i := strings.Index(cond[from:], "locations")
		if i < 0 {
			return "", "", false
		}
		i += from
		j := skip(cond, i+len("locations"), isSpace)
		if j < len(cond) && cond[j] == '[' {
			if k := strings.IndexByte(cond[j+1:], ']'); k >= 0 {
				return cond[i : j+1+k+1], cond[j+1 : j+1+k], true
			}
			return "", "", false // no ']' after this one: none after a later one
		}
		from = i + 1
	}
}

// indexWord is \bword\b : the leftmost whole word in s, or -1.
func indexWord(s, word string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], word)
		if i < 0 {
			return -1
		}
		i += from
		if isWordBoundary(s, i) && isWordBoundary(s, i+len(word)) {
			return i
		}
		from = i + 1
	}
}

// indexCondKeyword is \b(exists|forall|final|observed)\b : where the
// leftmost keyword of a final condition starts, or -1.
func indexCondKeyword(s string) int {
	for i := 0; i < len(s); i++ {
		if !isWordBoundary(s, i) {
			continue
		}
		for _, w := range []string{"exists", "forall", "final", "observed"} {
			if strings.HasPrefix(s[i:], w) && isWordBoundary(s, i+len(w)) {
				return i
			}
		}
	}
	return -1
}

// allAtoms is FindAllStringSubmatch of
//
//	((?:P?\d+\s*:\s*)?\[?[A-Za-z_%][\w.]*\]?(?:\[\d+\])?)\s*(?:==|!=|=)\s*(-?[\w.&:\[\]]+)
//
// the atoms "loc=value" of a condition, left to right, without overlap:
// for each, its location and its value.
func allAtoms(cond string) [][2]string {
	var out [][2]string
	for i := 0; i < len(cond); {
		if lhs, rhs, end, ok := atomAt(cond, i); ok {
			out = append(out, [2]string{cond[i:lhs], rhs})
			i = end
			continue
		}
		i++
	}
	return out
}

// atomAt matches an atom starting at i: with the thread prefix first,
// then without. It returns the location's end, the value and the atom's
// end. Every repetition is followed by a byte its class does not hold, so
// only its longest run can match.
func atomAt(s string, i int) (lhsEnd int, rhs string, end int, ok bool) {
	if v, ok := threadPrefix(s, i); ok {
		if l, r, e, ok := atomFrom(s, v); ok {
			return l, r, e, true
		}
	}
	return atomFrom(s, i)
}

// atomFrom matches \[?[A-Za-z_%][\w.]*\]?(?:\[\d+\])?\s*(?:==|!=|=)\s*(-?[\w.&:\[\]]+) at i.
func atomFrom(s string, i int) (lhsEnd int, rhs string, end int, ok bool) {
	if i < len(s) && s[i] == '[' {
		i++
	}
	if i >= len(s) || !(isLetter(s[i]) || s[i] == '_' || s[i] == '%') {
		return 0, "", 0, false
	}
	i = skip(s, i+1, func(b byte) bool { return isWord(b) || b == '.' })
	if i < len(s) && s[i] == ']' {
		i++
	}
	if i < len(s) && s[i] == '[' {
		if j := skip(s, i+1, isDigit); j > i+1 && j < len(s) && s[j] == ']' {
			i = j + 1
		}
	}
	lhsEnd = i
	i = skip(s, i, isSpace)
	rest := s[i:]
	var starts []int
	switch {
	case strings.HasPrefix(rest, "=="):
		// "==", then "=" (whose value would start with '=': no match)
		starts = []int{i + 2}
	case strings.HasPrefix(rest, "!="):
		starts = []int{i + 2}
	case strings.HasPrefix(rest, "="):
		starts = []int{i + 1}
	}
	inValue := func(b byte) bool { return isWord(b) || b == '.' || b == '&' || b == ':' || b == '[' || b == ']' }
	for _, j := range starts {
		j = skip(s, j, isSpace)
		k := j
		if k < len(s) && s[k] == '-' {
			k++
		}
		e := skip(s, k, inValue)
		if e > k {
			return lhsEnd, s[j:e], e, true
		}
	}
	return 0, "", 0, false
}

// allFaults is FindAllStringSubmatch of
// fault\s*\(\s*P?\d+(?::\w+)?\s*,\s*([A-Za-z_]\w*) : the locations of a
// condition's fault atoms.
func allFaults(cond string) []string {
	var out []string
	for from := 0; ; {
		i := strings.Index(cond[from:], "fault")
		if i < 0 {
			return out
		}
		i += from
		if loc, end, ok := faultAt(cond, i+len("fault")); ok {
			out = append(out, loc)
			from = end
			continue
		}
		from = i + 1
	}
}

// faultAt matches \s*\(\s*P?\d+(?::\w+)?\s*,\s*([A-Za-z_]\w*) at i.
func faultAt(s string, i int) (loc string, end int, ok bool) {
	i = skip(s, i, isSpace)
	if i >= len(s) || s[i] != '(' {
		return "", 0, false
	}
	i = skip(s, i+1, isSpace)
	if i < len(s) && s[i] == 'P' {
		i++
	}
	j := skip(s, i, isDigit)
	if j == i {
		return "", 0, false
	}
	if j < len(s) && s[j] == ':' {
		if k := skip(s, j+1, isWord); k > j+1 {
			j = k
		}
	}
	j = skip(s, j, isSpace)
	if j >= len(s) || s[j] != ',' {
		return "", 0, false
	}
	j = skip(s, j+1, isSpace)
	if j >= len(s) || !(isLetter(s[j]) || s[j] == '_') {
		return "", 0, false
	}
	k := skip(s, j+1, isWord)
	return s[j:k], k, true
}

// isRegRHS is ^P?\d+: : a value that is a register "0:EAX".
func isRegRHS(s string) bool {
	i := 0
	if i < len(s) && s[i] == 'P' {
		i++
	}
	j := skip(s, i, isDigit)
	return j > i && j < len(s) && s[j] == ':'
}

// matchIndexedName is ^(\w+)\[(\d+)\]$ : an array's cell "a[2]".
func matchIndexedName(s string) (name, index string, ok bool) {
	i := skip(s, 0, isWord)
	if i == 0 || i >= len(s) || s[i] != '[' {
		return "", "", false
	}
	j := skip(s, i+1, isDigit)
	if j == i+1 || j != len(s)-1 || s[j] != ']' {
		return "", "", false
	}
	return s[:i], s[i+1 : j], true
}
