package litmus

import "testing"

func TestX8664Translate(t *testing.T) {
	checkTranslations(t, x8664Frontend{}, []srcWant{
		{"movl $1,(x)", "store [x] 1"},
		{"MOVQ %RBX,(x)", "store [x] rbx"},
		{"movq (x),%rax", "rax = load [x]"},
		{"movl (y),%eax", "rax = load [y]"},
		{"movl 0(%rbx),%ecx", "rcx = load [rbx]"},
		{"movq %rax,(%rdx)", "store [rdx] rax"},
		{"movl 4(%rax),%ebx", "rbx = load [(rax + 4)]"},
		{"movq -8(%rax,%ecx,8),%rbx", "rbx = load [((rax + (rcx * 8)) + -8)]"},
		{"movq (%rax,%rcx,1),%rbx", "rbx = load [(rax + (rcx * 1))]"},
		{"movq $x,%rax", "rax = x"},
		{"movl $-2,%r8d", "r8 = -2"},
		{"mov %rax,%rbx", "rbx = rax"},
		{"xchgl %eax,(x)", "rax = rmw.X/.X [x] rax"},
		{"lock addl $2,(x)", " = rmw.X/.X [x] (old + 2)"},
		{"lock incq (x)", " = rmw.X/.X [x] (old + 1)"},
		{"lock xaddl %eax,(x)", "rax = rmw.X/.X [x] (old + rax)"},
		{"lock cmpxchgl %ebx,(x)", "%tmp = rmw.X/.X [x] rbx if (old == rax); rax = %tmp"},
		{"addl (x),%eax", "%tmp = load [x]; rax = (rax + %tmp)"},
		{"mfence; lfence; sfence; nop; endbr64; nopl 0(%rax,%rax,1)", "fence.MFENCE; fence.LFENCE; fence.SFENCE"},
		{"movl $1,(x); ret; movl $2,(x)", "store [x] 1; goto %ret; store [x] 2; %ret:"},
		{"movb $-1,%al", "%rax.1 = (rax & 255); %rax.1 = 255; rax = ((rax & -256) | (%rax.1 & 255))"},
		{"movw (x),%ax", "%rax.2 = (rax & 65535); %rax.2 = load [x]; rax = ((rax & -65536) | (%rax.2 & 65535))"},
		{"L1: cmpb $-1,%bl; je L1", "L1:; %rbx.1 = (rbx & 255); %cmpL = %rbx.1; %cmpR = 255; rbx = ((rbx & -256) | (%rbx.1 & 255)); %cmpL = ((%cmpL << 56) >> 56); %cmpR = ((%cmpR << 56) >> 56); if (%cmpL == %cmpR) goto L1"},
		{"L0: movl (x),%eax; cmpl $0,%eax; je L0", "L0:; rax = load [x]; %cmpL = rax; %cmpR = 0; if (%cmpL == %cmpR) goto L0"},
		{"shl 2,%eax; salq $1,%rbx", "rax = (rax << 2); rbx = (rbx << 1)"},
		{"shll $3,(x)", "%tmp = load [x]; store [x] (%tmp << 3)"},
	})
	checkThreadErrors(t, x8664Frontend{}, false, []srcWant{
		{"mov $1,(x)", "give the size of the access with a suffix"},
		{"movl %rax,(x)", "the size of its suffix (4 bytes) is not that of its register (8)"},
		{"movq %eax,%rbx", "registers of different sizes"},
		{"movl 4(%rax,%rbx,3),%ebx", "unsupported X86_64 operand"},
		{"movl 4(%eax),%ebx", "unsupported X86_64 operand"},
		{"movl (%eax),%ebx", "the address register is a 64-bit one"},
		{"movl %zz,%eax", "unknown X86_64 register %zz"},
		{"frobq %rax", `unknown X86_64 instruction "frobq"`},
		{"movl $1,", "missing operand"},
		{"lock movl $1,(x)", "LOCK prefix not allowed on MOV"},
	})
	if r, ok := (x8664Frontend{}).RegName("EAX"); !ok || r != "rax" {
		t.Errorf("RegName(EAX) = %q, %v; want rax", r, ok)
	}
}
