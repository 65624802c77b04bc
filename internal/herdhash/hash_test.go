package herdhash

import "testing"

// The expected digests are herd7 7.58's Hash= lines for these tests
// (reference logs of the shared corpus); each case exercises one rule of
// herd7's canonical printing.
func TestOf(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"PPC, labels and beq's two spaces", `PPC LB+lwsync+ctrl
"PodRWLwSync Rfe DpCtrldW Rfe"
{
0:r2=x; 0:r4=y;
1:r2=y; 1:r4=x;
}
 P0           | P1           ;
 lwz r1,0(r2) | lwz r1,0(r2) ;
 lwsync       | cmpw r1,r1   ;
 li r3,1      | beq  LC00    ;
 stw r3,0(r4) | LC00:        ;
              | li r3,1      ;
              | stw r3,0(r4) ;
exists
(0:r1=1 /\ 1:r1=1)
`, "6457d191dccbe8b25bf23b6e5fbc0fc0"},
		{"X86, Intel syntax without dollars, ~ exists", `X86 MP
{x = 0; y = 0};

        P0    |       P1      ;
  mov [x], 1  |  mov EAX, [y] ;
  mov [y], 1  |  mov EBX, [x];


~exists (P1:EAX = 1 /\ P1:EBX = 0);
`, "23fb141c63a63e29a5083c670a4d124d"},
		{"a Hash= in the header is herd7's answer", "X86 T\nHash=0123\n{}\n P0 ;\n MFENCE ;\nexists (x=1)\n", "0123"},
	}
	for _, c := range cases {
		got, ok := Of([]byte(c.src))
		if !ok {
			t.Errorf("%s: no hash", c.name)
			continue
		}
		if c.want != "" && got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}
