package graph

// mayStop tells whether a run with Options.StopAtFirst may end now that
// an execution satisfies the condition: when no flag is awaited
// (Options.AwaitFlag), or one it accepts has been raised. A check that
// reports data races waits so for a race besides an assertion's failure,
// so that it knows whether the program has both.
func (x *engine) mayStop() bool {
	if x.opts.AwaitFlag == nil {
		return true
	}
	for f := range x.flags {
		if x.opts.AwaitFlag(f) {
			return true
		}
	}
	return false
}
