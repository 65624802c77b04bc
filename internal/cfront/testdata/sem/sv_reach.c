// SV-COMP's form of an assertion: the program defines reach_error with
// an empty body and __VERIFIER_assert itself; calling reach_error is the
// failure, whatever its body. -O1 used to inline the empty body away
// and the failure with it (PASS where the native run aborts).
extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int expression) { if (!expression) { ERROR: {reach_error();abort();} }; return; }

int a[3] = {1, 2, 3};

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += a[i];
	__VERIFIER_assert(s == 7);
	return 0;
}
