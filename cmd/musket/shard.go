package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// shardFlag is -shard K/N: the K-th of N deterministic slices of the
// inputs. Input i (from 0, in the order the operands list the tests)
// belongs to shard i mod N + 1, so that the shards are the same size
// within one test whatever the order of slow and fast tests, and a merge
// puts each result back in its place.
type shardFlag struct {
	k, n int // n == 0: no sharding
}

func (s *shardFlag) String() string {
	if s == nil || s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.k, s.n)
}

func (s *shardFlag) Set(v string) error {
	k, n, err := parseShard(v)
	if err != nil {
		return err
	}
	s.k, s.n = k, n
	return nil
}

// parseShard reads "K/N" with 1 <= K <= N. K may be an environment
// variable's value given by the scheduler from 0 (Kubernetes'
// JOB_COMPLETION_INDEX): "K0/N" is not accepted; the recipes add one.
func parseShard(v string) (int, int, error) {
	ks, ns, ok := strings.Cut(v, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(ks))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("want K/N with 1 <= K <= N (e.g. 3/8), got %q", v)
	}
	return k, n, nil
}

// addShard declares -shard on fs.
func addShard(fs *flag.FlagSet) *shardFlag {
	s := &shardFlag{}
	fs.Var(s, "shard", "run only the `K/N`-th of N deterministic slices of the tests (test i, from 0 in input order, is in slice i mod N + 1); 'musket merge' joins the -json outputs of the N slices into the result of one run. MUSKET_SHARD=K/N in the environment does the same")
	return s
}

// apply keeps the inputs of the shard (all of them without -shard; the
// environment's MUSKET_SHARD when the flag is not given).
func (s *shardFlag) apply(files []string) ([]string, error) {
	if s.n == 0 {
		if v := os.Getenv("MUSKET_SHARD"); v != "" {
			if err := s.Set(v); err != nil {
				return nil, fmt.Errorf("MUSKET_SHARD: %v", err)
			}
		}
	}
	if s.n == 0 {
		return files, nil
	}
	var out []string
	for i, f := range files {
		if i%s.n == s.k-1 {
			out = append(out, f)
		}
	}
	return out, nil
}
