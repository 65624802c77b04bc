// Package conformance holds the tests that compare Musket's verdicts with
// herd7's on the litmus corpus in ../shared/corpus (expected/*.csv), for
// each suite under Musket's built-in model and under the reference .cat
// files. Known divergences are listed, each with its reason, in
// divergences/*.txt (one file per architecture); any other disagreement fails the test.
package conformance
