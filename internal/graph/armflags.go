package graph

// armShareability are the barrier tags for which the built-in aarch64.cat
// raises its flag Assuming-common-inner-shareable-domain (its
// shareability-option set): the ISH and OSH options of the DMBs and of
// the full, load and store DSBs.
var armShareability = map[string]bool{
	"DMB.ISH": true, "DMB.OSH": true, "DMB.ISHLD": true, "DMB.OSHLD": true,
	"DMB.ISHST": true, "DMB.OSHST": true, "DSB.ISH": true, "DSB.OSH": true,
	"DSB.ISHLD": true, "DSB.OSHLD": true, "DSB.ISHST": true, "DSB.OSHST": true,
}

// armFlags appends to flags the flags the built-in aarch64.cat raises on
// g, which the native check (armNative) does not evaluate: the model's
// only flag is raised when an event of g carries one of the tags of
// armShareability (flag ~empty of a union of tag sets).
func armFlags(g *graph, flags *[]string) {
	for i := range g.evs {
		for _, t := range g.evs[i].tags {
			if armShareability[t] {
				*flags = append(*flags, "Assuming-common-inner-shareable-domain")
				return
			}
		}
	}
}
