package prog

import (
	"reflect"
	"testing"
)

func TestDefsAndAddrOf(t *testing.T) {
	x := Addr("x")
	tests := []struct {
		in   Instr
		defs []string
		addr Expr // nil: not a memory access
	}{
		{Load{Dst: "r1", Addr: x}, []string{"r1"}, x},
		{Store{Addr: x, Val: Int(1)}, nil, x},
		{RMW{Dst: "r2", Addr: x}, []string{"r2"}, x},
		{StoreCond{Status: "r3", Addr: x}, []string{"r3"}, x},
		{Assign{Dst: "r4", Val: Int(2)}, []string{"r4"}, nil},
		{Havoc{Dst: "r5"}, []string{"r5"}, nil},
		{Load{Addr: x}, nil, x},
	}
	for _, tc := range tests {
		if got := Defs(tc.in); !reflect.DeepEqual(got, tc.defs) {
			t.Errorf("Defs(%v) = %v, want %v", tc.in, got, tc.defs)
		}
		addr, ok := AddrOf(tc.in)
		if ok != (tc.addr != nil) || !reflect.DeepEqual(addr, tc.addr) {
			t.Errorf("AddrOf(%v) = %v, %v; want %v", tc.in, addr, ok, tc.addr)
		}
	}
}
