// Package herdhash computes the Hash= line herd7 prints after a test's
// result, so that Musket's logs carry the same line as herd7's.
//
// herd7 (the "herd" tool of Alglave and Maranget's diy suite) digests a
// test in a canonical form: when the test's header gives a Hash=
// value, that value; otherwise the MD5 of four MD5 digests, of the
// header's memory-type keys (when it has any), of the initial state
// sorted by location and printed "loc=value" (with its type when one is
// given), of the code printed by the architecture's own instruction
// printer in a table of columns with its labels renamed L00, L01, ...,
// and of the locations the final condition and the locations list
// observe. This package reproduces that text per architecture (X86, X86_64,
// PPC, RISC-V, AArch64, MIPS, ARM and C) from the test's source, independently of
// Musket's own parser: it reads what herd7 reads, not Musket's
// translation of it.
package herdhash

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Of returns the Hash value herd7 prints for the litmus test src
// (without "Hash="), and false when the test's architecture has no
// printer here or its text could not be read the way herd7 reads it.
func Of(src []byte) (string, bool) {
	h, err := compute(string(src))
	if err != nil {
		return "", false
	}
	return h, true
}

// test is a litmus test split into herd7's sections.
type test struct {
	arch   string
	info   [][2]string // key=value lines of the header
	init   string
	code   string
	cond   string
	isC    bool
	params [][]string // C: each thread's parameters (unused in the digest)
}

func compute(src string) (string, error) {
	t, err := split(src)
	if err != nil {
		return "", err
	}
	for _, kv := range t.info {
		if strings.EqualFold(kv[0], "Hash") {
			return kv[1], nil
		}
	}
	mips := strings.EqualFold(t.arch, "MIPS")
	if mips {
		t.init, t.cond = mipsPrepare(t.init), mipsPrepare(t.cond)
	}
	initText, err := initDigestText(t.init)
	if err != nil {
		return "", err
	}
	if mips {
		initText = mipsFinish(initText, true)
	} else if strings.EqualFold(t.arch, "ARM") {
		initText = bareSymRegs(initText)
	}
	var codeText string
	if t.isC {
		codeText, err = cCodeText(t.code)
	} else {
		codeText, err = asmCodeText(t.arch, t.code)
	}
	if err != nil {
		return "", err
	}
	obs, err := observedText(t.cond)
	if err != nil {
		return "", err
	}
	if mips {
		obs = mipsFinish(obs, false)
	}
	var all []byte
	all = append(all, infoDigest(t.info)...)
	all = append(all, digest(initText)...)
	all = append(all, digest(codeText)...)
	all = append(all, digest(obs)...)
	sum := md5.Sum(all)
	return hex.EncodeToString(sum[:]), nil
}

func digest(s string) []byte {
	d := md5.Sum([]byte(s))
	return d[:]
}

// infoDigest is the digest of the header keys herd7 digests (the memory
// type keys, MemoryType and MT), or nothing when there are none: the
// keys sorted, each printed "key=value" with the key in lower case, in
// the reverse of that order.
func infoDigest(info [][2]string) []byte {
	var kvs [][2]string
	for _, kv := range info {
		if strings.EqualFold(kv[0], "MemoryType") || strings.EqualFold(kv[0], "MT") {
			kvs = append(kvs, kv)
		}
	}
	if len(kvs) == 0 {
		return nil
	}
	sort.SliceStable(kvs, func(i, j int) bool { return kvs[i][0] < kvs[j][0] })
	var b strings.Builder
	for i := len(kvs) - 1; i >= 0; i-- {
		b.WriteString(strings.ToLower(kvs[i][0]) + "=" + kvs[i][1])
	}
	return digest(b.String())
}

// stripComments removes OCaml-style comments "(* ... *)", nested.
func stripComments(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], "(*") {
			depth++
			i++
			continue
		}
		if depth > 0 && strings.HasPrefix(s[i:], "*)") {
			depth--
			i++
			continue
		}
		if depth == 0 {
			b.WriteByte(s[i])
		} else if s[i] == '\n' {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// condStart finds where the final condition starts: the first line
// whose first word after blanks is exists, forall, final, locations,
// filter or one that starts with '~' (the regular expression
// (?m)^[ \t]*(exists|~[ \t]*exists|forall|final|locations|filter|~)
// read by hand: it runs over every test's code).
func condStart(body string) int {
	for start := 0; start <= len(body); {
		i := start
		for i < len(body) && (body[i] == ' ' || body[i] == '\t') {
			i++
		}
		rest := body[i:]
		for _, kw := range condWords {
			if strings.HasPrefix(rest, kw) {
				return start
			}
		}
		nl := strings.IndexByte(body[start:], '\n')
		if nl < 0 {
			break
		}
		start += nl + 1
	}
	return -1
}

var condWords = []string{"exists", "forall", "final", "locations", "filter", "~"}

// split cuts a test into its header, initial state, code and final
// condition, as herd7's splitter does.
func split(src string) (*test, error) {
	src = strings.TrimPrefix(src, "\xEF\xBB\xBF")
	nl := strings.IndexByte(src, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("no test")
	}
	first := strings.Fields(src[:nl])
	if len(first) < 2 {
		return nil, fmt.Errorf("no name")
	}
	t := &test{arch: first[0]}
	t.isC = strings.EqualFold(t.arch, "C")
	rest := src[nl+1:]
	// The header: lines up to the '{' of the initial state.
	open := -1
	inStr := false
	depth := 0
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case depth == 0 && c == '"':
			inStr = !inStr
		case !inStr && strings.HasPrefix(rest[i:], "(*") && (depth > 0 || opensComment(rest[i+2:])):
			depth++
			i++
		case depth > 0 && strings.HasPrefix(rest[i:], "*)"):
			depth--
			i++
		case !inStr && depth == 0 && c == '{':
			open = i
		}
		if open >= 0 {
			break
		}
	}
	if open < 0 {
		return nil, fmt.Errorf("no initial state")
	}
	for _, line := range strings.Split(stripComments(rest[:open]), "\n") {
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t\"") {
			continue
		}
		t.info = append(t.info, [2]string{k, strings.TrimSpace(v)})
	}
	body := rest[open+1:]
	if !t.isC {
		body = stripComments(body)
	}
	// The initial state ends at the matching '}'.
	depth = 1
	end := -1
	for i := 0; i < len(body) && end < 0; i++ {
		switch body[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return nil, fmt.Errorf("initial state not closed")
	}
	t.init = stripComments(body[:end])
	body = body[end+1:]
	if t.isC {
		code, cond, err := splitC(body)
		if err != nil {
			return nil, err
		}
		t.code, t.cond = code, stripComments(cond)
		return t, nil
	}
	at := condStart(body)
	if at < 0 {
		return nil, fmt.Errorf("no final condition")
	}
	t.code, t.cond = body[:at], body[at:]
	return t, nil
}

// opensComment tells whether the "(*" before rest opens a comment in a
// test's header: herd7 reads the header line by line, and there "(*"
// opens a comment only when nothing but blanks follows it on its line;
// otherwise the line is free text.
func opensComment(rest string) bool {
	line, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(line) == ""
}

// location is a location of the initial state or the condition.
type location struct {
	kind   int // 0 register, 1 symbolic register, 2 global
	thread int
	name   string
	index  int // a global's [i] in the condition, -1 if none
}

func (l location) String() string {
	s := l.name
	if l.kind == 0 {
		s = strconv.Itoa(l.thread) + ":" + l.name
	}
	if l.index >= 0 {
		s += "[" + strconv.Itoa(l.index) + "]"
	}
	return s
}

func (l location) less(m location) bool {
	if l.kind != m.kind {
		return l.kind < m.kind
	}
	if l.kind == 0 && l.thread != m.thread {
		return l.thread < m.thread
	}
	if l.name != m.name {
		return l.name < m.name
	}
	return l.index < m.index
}

// regLoc matches a register location "0:r1" or "P0 : r1" (what the
// regular expression ^P?(\d+)\s*:\s*(\S+)$ matches), by hand: it is
// read for every location of every test, and regular expressions are
// slow in the playground's WebAssembly build.
func regLoc(s string) (thread, reg string, ok bool) {
	i := 0
	if i < len(s) && s[i] == 'P' {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return "", "", false
	}
	thread = s[i:j]
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	if j == len(s) || s[j] != ':' {
		return "", "", false
	}
	j++
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	reg = s[j:]
	if reg == "" || strings.ContainsAny(reg, " \t\n\f\r") {
		return "", "", false
	}
	return thread, reg, true
}

// isSpace is the regular expressions' \s: [\t\n\f\r ].
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// parseLocation reads "0:r1", "P0:r1", "x", "[x]", "%r".
func parseLocation(s string) (location, error) {
	s = strings.TrimSpace(s)
	if th, reg, ok := regLoc(s); ok {
		n, _ := strconv.Atoi(th)
		return location{kind: 0, thread: n, name: reg, index: -1}, nil
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if strings.HasPrefix(s, "%") {
		return location{kind: 1, name: s, index: -1}, nil
	}
	if s == "" {
		return location{}, fmt.Errorf("empty location")
	}
	return location{kind: 2, name: s, index: -1}, nil
}

// plainLoc tells whether s is a location with no type, no '*' and no
// size, "x", "[x]" or "0:EAX": one that typedLoc matches as its
// location alone.
func plainLoc(s string) bool {
	i := 0
	if i < len(s) && s[i] == 'P' {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > i && j < len(s) && s[j] == ':' {
		s = s[j+1:] // "0:EAX"
	}
	if s == "" || !(isWord(s[0]) && (s[0] < '0' || s[0] > '9') || s[0] == '%' || s[0] == '[') {
		return false
	}
	for k := 1; k < len(s); k++ {
		if !isWord(s[k]) && s[k] != '.' && s[k] != ']' {
			return false
		}
	}
	return true
}

// isWord is the regular expressions' \w: [0-9A-Za-z_].
func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}

// initDigestText prints the initial state as herd7 digests it.
func initDigestText(init string) (string, error) {
	type entry struct {
		loc  location
		text string
	}
	var es []entry
	for _, item := range strings.Split(init, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		lhs, val, hasVal := strings.Cut(item, "=")
		lhs = strings.TrimSpace(lhs)
		val = strings.TrimSpace(val)
		if !hasVal {
			val = "0"
		}
		val = strings.TrimPrefix(val, "&")
		if strings.HasPrefix(val, "instr:") || codeLabelValue(val) {
			// herd7 digests instruction values and code labels as it
			// prints them in its own forms, not reproduced here.
			return "", fmt.Errorf("init item %q: an instruction or code label value", item)
		}
		if strings.HasPrefix(val, "ATOMIC_INIT") {
			if v, ok := matchAtomicInit(val); ok {
				val = v // the kernel's ATOMIC_INIT(v) is v
			}
		}
		var ty, star, name, size string
		if plainLoc(lhs) {
			name = lhs // what typedLoc finds in it, without its cost
		} else {
			var ok bool
			ty, star, name, size, ok = matchTypedLoc(lhs)
			if !ok {
				return "", fmt.Errorf("init item %q", item)
			}
			ty = strings.TrimSpace(ty)
		}
		loc, err := parseLocation(name)
		if err != nil {
			return "", err
		}
		var text string
		switch {
		case size != "":
			text = fmt.Sprintf("%s %s[%s]", ty, loc, size)
		case ty == "" && star == "":
			text = fmt.Sprintf("%s=%s", loc, val)
		case ty == "" && star != "":
			text = fmt.Sprintf("*%s=%s", loc, val)
		case strings.HasPrefix(ty, "_Atomic "):
			text = fmt.Sprintf("_Atomic %s %s=%s", strings.TrimSpace(strings.TrimPrefix(ty, "_Atomic ")), loc, val)
		case star != "":
			text = fmt.Sprintf("%s *%s=%s", ty, loc, val)
		default:
			text = fmt.Sprintf("%s %s=%s", ty, loc, val)
		}
		es = append(es, entry{loc, text})
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].loc.less(es[j].loc) })
	var parts []string
	for i, e := range es {
		if i > 0 && !es[i-1].loc.less(e.loc) {
			continue // herd7 keeps one entry per location
		}
		parts = append(parts, e.text)
	}
	return strings.Join(parts, "; "), nil
}

// observedText prints the locations the condition and the locations
// list observe, sorted, joined by "; ".
func observedText(cond string) (string, error) {
	set := map[string]location{}
	add := func(s string) error {
		l, err := parseLocation(s)
		if err != nil {
			return err
		}
		if l.kind != 2 || !strings.HasSuffix(l.name, "]") {
			// not a global's cell
		} else if name, index, ok := matchIndexedName(l.name); ok {
			l.name = name
			l.index, _ = strconv.Atoi(index)
		}
		set[l.String()] = l
		return nil
	}
	if whole, items, ok := matchLocationsList(cond); ok {
		for _, item := range strings.Split(items, ";") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			if i := strings.IndexByte(item, ':'); i >= 0 {
				if _, _, isReg := regLoc(item); !isReg {
					item = item[:i] // "x:uint8_t"
				}
			}
			if err := add(item); err != nil {
				return "", err
			}
		}
		cond = strings.Replace(cond, whole, "", 1)
	}
	// The filter's locations are not observed.
	cond = cutFilter(cond)
	for _, m := range allAtoms(cond) {
		if err := add(m[0]); err != nil {
			return "", err
		}
		if isRegRHS(m[1]) || strings.HasPrefix(m[1], "[") {
			if err := add(m[1]); err != nil {
				return "", err
			}
		}
	}
	for _, loc := range allFaults(cond) {
		if err := add(loc); err != nil {
			return "", err
		}
	}
	ls := make([]location, 0, len(set))
	for _, l := range set {
		ls = append(ls, l)
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].less(ls[j]) })
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.String()
	}
	return strings.Join(parts, "; "), nil
}

// progText lays out the threads' code as herd7's code printer does: one
// column per thread, each cell padded to its column's width, " a | b ;".
func progText(cols [][]string) string {
	sizes := make([]int, len(cols))
	rows := 0
	for i, col := range cols {
		for _, s := range col {
			if len(s) > sizes[i] {
				sizes[i] = len(s)
			}
		}
		if len(col) > rows {
			rows = len(col)
		}
	}
	var b strings.Builder
	for r := 0; r < rows; r++ {
		for i, col := range cols {
			if i > 0 {
				b.WriteByte('|')
			}
			s := ""
			if r < len(col) {
				s = col[r]
			}
			// Padded by bytes, as herd7 pads.
			b.WriteString(" " + s + strings.Repeat(" ", sizes[i]-len(s)) + " ")
		}
		b.WriteString(";\n")
	}
	return b.String()
}

// cutFilter removes a condition's filter, "filter PROP", whose
// locations herd7 does not observe. The proposition has no end marker
// of its own (herd7's grammar: locations, then an optional "filter
// PROP", then the final condition), so it ends where the final condition
// starts: at its keyword (exists, forall, final, observed, with a "~" or
// "not" before it), or, when the condition is a bare "(PROP)", at the
// parenthesis after the filter's own parenthesised proposition.
func cutFilter(cond string) string {
	at := indexWord(cond, "filter")
	if at < 0 {
		return cond
	}
	rest := cond[at+len("filter"):]
	end := len(rest)
	if k := indexCondKeyword(rest); k >= 0 {
		end = k
		before := strings.TrimRight(rest[:end], " \t\r\n")
		switch {
		case strings.HasSuffix(before, "~"):
			end = len(before) - 1
		case strings.HasSuffix(before, "not") && (len(before) == 3 || !isWord(before[len(before)-4])):
			end = len(before) - 3
		}
	} else if t := strings.TrimLeft(rest, " \t\r\n"); strings.HasPrefix(t, "(") {
		depth := 0
		for i := 0; i < len(t); i++ {
			if t[i] == '(' {
				depth++
			} else if t[i] == ')' {
				depth--
				if depth == 0 {
					if after := strings.TrimLeft(t[i+1:], " \t\r\n"); strings.HasPrefix(after, "(") {
						end = len(rest) - len(after)
					}
					break
				}
			}
		}
	}
	return cond[:at] + rest[end:]
}

// codeLabelValue tells whether an initial value is a code label "P0:foo".
func codeLabelValue(v string) bool {
	th, _, ok := strings.Cut(v, ":")
	if !ok || len(th) < 2 || th[0] != 'P' {
		return false
	}
	_, err := strconv.Atoi(th[1:])
	return err == nil
}
