package rel

// Hash returns a hash of the set's contents: equal sets over the same
// universe hash alike; the empty set hashes to 0 whatever its universe.
func (s Set) Hash() uint64 { return hashWords(s.w) }

// Hash returns a hash of the relation's contents: equal relations over the
// same universe hash alike; the empty relation hashes to 0.
func (r Rel) Hash() uint64 { return hashWords(r.b) }

func hashWords(ws []uint64) uint64 {
	var h uint64
	for i, x := range ws {
		if x == 0 {
			continue
		}
		// splitmix64 of the word mixed with its index
		z := x + uint64(i+1)*0x9e3779b97f4a7c15
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		h ^= z ^ z>>31
	}
	return h
}
