package litmus

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// srcWant is a thread given as cells separated by ';', and what is
// expected of it.
type srcWant struct{ src, want string }

// threadCode translates one thread of front-end fe whose cells are
// separated by ';', and prints its code.
func threadCode(t *testing.T, fe Frontend, src string) (string, error) {
	t.Helper()
	var cells []Cell
	for i, c := range strings.Split(src, ";") {
		cells = append(cells, Cell{Text: strings.TrimSpace(c), Pos: prog.Pos{File: "t", Line: i + 1, Col: 1}})
	}
	th, err := fe.Thread(0, cells)
	if err != nil {
		return "", err
	}
	if len(th.Pos) != len(th.Code) {
		t.Errorf("%s: %d instructions, %d positions", src, len(th.Code), len(th.Pos))
	}
	if _, err := th.Labels(); err != nil {
		t.Errorf("%s: %v", src, err)
	}
	return codeString(th), nil
}

// checkTranslations checks that each thread translates to the code want.
func checkTranslations(t *testing.T, fe Frontend, tests []srcWant) {
	t.Helper()
	for _, tc := range tests {
		got, err := threadCode(t, fe, tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// checkThreadErrors checks that each thread is refused with the error
// want (exact), or with an error that contains want.
func checkThreadErrors(t *testing.T, fe Frontend, exact bool, tests []srcWant) {
	t.Helper()
	for _, tc := range tests {
		_, err := threadCode(t, fe, tc.src)
		if err == nil || exact && err.Error() != tc.want || !exact && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got error %v\nwant %s", tc.src, err, tc.want)
		}
	}
}
