package litmus

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// TestVMAndTagRefusals: herd7's virtual-memory and MTE tests are
// refused by name (an "unsupported" error, exit 3), not as bad syntax.
func TestVMAndTagRefusals(t *testing.T) {
	const tail = " P0 ;\n NOP ;\nexists (x=1)\n"
	for _, tc := range []struct{ name, src, want string }{
		{"PTE location", "AArch64 t\n{ [PTE(x)]=(oa:PA(x),valid:0); }\n" + tail,
			"t.litmus:2:4: unsupported initial state: PTE(...): page-table entries (virtual memory) are not modelled"},
		{"PTE value", "AArch64 t\n{ 0:X0=PTE(x); }\n" + tail,
			"t.litmus:2:8: unsupported initial value: PTE(...): page-table entries (virtual memory) are not modelled"},
		{"descriptor", "AArch64 t\n{ 0:X1=(valid:0,oa:PA(x)); }\n" + tail,
			"t.litmus:2:8: unsupported initial value: page-table descriptors (valid:...) of virtual memory are not modelled"},
		{"tag location", "AArch64 t\n{ [tag(x)]=:green; }\n" + tail,
			"t.litmus:2:4: unsupported initial state: tag(...): memory tags (MTE) are not modelled"},
		{"tagged address", "AArch64 t\n{ 0:X1=x:red; }\n" + tail,
			"t.litmus:2:8: unsupported initial value: tagged addresses (x:red): memory tagging (MTE) is not modelled"},
		{"variant line", "AArch64 t\nVariant=mte,async\n{ }\n" + tail,
			"t.litmus:2:1: unsupported test: its variant mte (memory tagging (MTE) is not modelled)"},
		{"morello", "AArch64 t\nVariant=morello\n{ 0:X1=x; }\n P0 ;\n STR WZR,[C1] ;\nexists (x=1)\n",
			"t.litmus:2:1: unsupported test: its variant morello (Morello capabilities are not modelled)"},
		{"fault condition", "AArch64 t\n{ }\n P0 ;\n NOP ;\nforall (fault(P0,x) /\\ 0:X0=0)\n",
			"t.litmus:5:9: unsupported condition: fault(...): faults are not modelled"},
		{"fault location", "AArch64 t\n{ }\n P0 ;\n NOP ;\nlocations [Fault(P0,x);]\nexists (x=1)\n",
			"t.litmus:5:12: unsupported condition: Fault(...): faults are not modelled"},
		{"variant line, lower case", "AArch64 t\nvariant=kvm\n{ }\n" + tail,
			"t.litmus:2:1: unsupported test: its variant kvm (virtual memory: page-table entries and TLB maintenance are not modelled)"},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil {
			t.Errorf("%s: no error, want %s", tc.name, tc.want)
			continue
		}
		if first := strings.SplitN(err.Error(), "\n", 2)[0]; first != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, first, tc.want)
		}
		if !source.IsUnsupported(err) {
			t.Errorf("%s: %v is not an unsupported-feature error", tc.name, err)
		}
	}
}

// TestBracketLocation: herd's "[x]=1" in an initial state is still x,
// and a variant Musket models (herd's cutoff, fatal) is no refusal.
func TestBracketLocation(t *testing.T) {
	tt, err := Parse("t.litmus", []byte("AArch64 t\nVariant=fatal\n{ [x]=1; 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\nforall (0:X0=1)\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tt.Init {
		if e.Ref.Thread < 0 {
			if e.Ref.Name != "x" || e.Val != prog.IntValue(1) {
				t.Errorf("init entry %v = %v, want x = 1", e.Ref, e.Val)
			}
			return
		}
	}
	t.Errorf("no entry for x in %v", tt.Init)
}
