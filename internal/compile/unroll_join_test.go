package compile

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestUnrollJoin checks that the end of a jump's control dependency
// (prog.Jump.Join, printed "~L") follows its copy: an if inside a loop
// body joins in its own copy; a loop test's Join, outside the body, keeps
// its name.
func TestUnrollJoin(t *testing.T) {
	load := prog.Load{Dst: "r", Addr: prog.Addr("x")}
	store := prog.Store{Addr: prog.Addr("y"), Val: prog.Int(1)}
	r := prog.Reg{Name: "r"}
	tests := []struct {
		name string
		code []prog.Instr
		k    int
		want string
	}{
		{"if in a do-while body", []prog.Instr{
			prog.Label{Name: "top"},
			load,
			prog.Jump{Cond: r, Target: "skip", Join: "skip"},
			store,
			prog.Label{Name: "skip"},
			prog.Jump{Cond: r, Target: "top", Join: "out"},
			prog.Label{Name: "out"},
		}, 2, "top:; r = load [x]; if r goto skip ~skip; store [y] 1; skip:; if r goto top%2 ~out; goto top%exit; " +
			"top%2:; r = load [x]; if r goto skip%2 ~skip%2; store [y] 1; skip%2:; if r goto %cut ~out; " +
			"top%exit:; out:; goto %end; %cut:; %bound = 1; %end:"},
		{"if else in a while body", []prog.Instr{
			prog.Label{Name: "top"},
			load,
			prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: r}, Target: "end", Join: "end"},
			prog.Jump{Cond: r, Target: "els", Join: "join"},
			store,
			prog.Jump{Target: "join"},
			prog.Label{Name: "els"},
			prog.Label{Name: "join"},
			prog.Jump{Target: "top"},
			prog.Label{Name: "end"},
		}, 2, "top:; r = load [x]; if !r goto end ~end; if r goto els ~join; store [y] 1; goto join; els:; join:; " +
			"top%2:; r = load [x]; if !r goto end ~end; if r goto els%2 ~join%2; store [y] 1; goto join%2; els%2:; join%2:; goto %cut; " +
			"end:; goto %end; %cut:; %bound = 1; %end:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, err := UnrollThread(&prog.Thread{Name: "P0", Code: tc.code}, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			var ins []string
			for _, in := range u.Code {
				s := prog.InstrString(in)
				if j, ok := in.(prog.Jump); ok && j.Join != "" {
					s += " ~" + j.Join
				}
				ins = append(ins, s)
			}
			if got := strings.Join(ins, "; "); got != tc.want {
				t.Errorf("unrolled\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}
