package cat

// The conditions of if: variants, negation, conjunction, disjunction and
// comparisons.

// condCode is a compiled if condition.
type condCode interface {
	holds(r *run, f *frame) (bool, error)
}

type (
	variantCode struct{ name string }
	notCode     struct{ x condCode }
	andCode     struct{ x, y condCode }
	orCode      struct{ x, y condCode }
	compareCode struct {
		op   Token
		x, y node
		pos  Position
	}
)

func (c *variantCode) holds(r *run, _ *frame) (bool, error) {
	return r.opts.Variants[c.name], nil
}

func (c *notCode) holds(r *run, f *frame) (bool, error) {
	b, err := c.x.holds(r, f)
	return !b, err
}

func (c *andCode) holds(r *run, f *frame) (bool, error) {
	b, err := c.x.holds(r, f)
	if err != nil || !b {
		return false, err
	}
	return c.y.holds(r, f)
}

func (c *orCode) holds(r *run, f *frame) (bool, error) {
	b, err := c.x.holds(r, f)
	if err != nil || b {
		return b, err
	}
	return c.y.holds(r, f)
}

func (c *compareCode) holds(r *run, f *frame) (bool, error) {
	a, err := c.x.eval(r, f)
	if err != nil {
		return false, err
	}
	b, err := c.y.eval(r, f)
	if err != nil {
		return false, err
	}
	switch c.op {
	case EQ:
		return equalValues(a, b), nil
	case IN:
		return r.member(a, b, c.pos)
	default:
		return r.subset(a, b, c.pos)
	}
}
