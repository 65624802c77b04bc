package prog

import "fmt"

// Apply computes a binary operator on two concrete values. Addresses take
// part only in equality tests and in adding an integer offset.
func Apply(op Op, a, b Value) (Value, error) {
	if op == OpPick {
		return a, nil
	}
	if a.IsAddr() || b.IsAddr() {
		switch op {
		case OpEq:
			return boolValue(a == b), nil
		case OpNe:
			return boolValue(a != b), nil
		case OpAdd:
			if a.IsAddr() && !b.IsAddr() {
				return Value{Loc: a.Loc, Int: a.Int + b.Int}, nil
			}
			if b.IsAddr() && !a.IsAddr() {
				return Value{Loc: b.Loc, Int: a.Int + b.Int}, nil
			}
		case OpSub:
			if a.IsAddr() && !b.IsAddr() {
				return Value{Loc: a.Loc, Int: a.Int - b.Int}, nil
			}
			// Two addresses in one location are apart by the difference
			// of their offsets (herd's "r4 = r2; r4 -= r4" on an address,
			// BPF's false dependency).
			if a.IsAddr() && b.IsAddr() && a.Loc == b.Loc {
				return IntValue(a.Int - b.Int), nil
			}
		case OpXor:
			// x ^ x is 0 whatever x is: herd's false dependencies.
			if a == b {
				return IntValue(0), nil
			}
			if !b.IsAddr() && b.Int == 0 {
				return a, nil
			}
			if !a.IsAddr() && a.Int == 0 {
				return b, nil
			}
		case OpAnd:
			if !b.IsAddr() && b.Int == 0 || !a.IsAddr() && a.Int == 0 {
				return IntValue(0), nil
			}
		case OpMul:
			if !b.IsAddr() && b.Int == 0 || !a.IsAddr() && a.Int == 0 {
				return IntValue(0), nil
			}
		case OpLAnd:
			return boolValue(truth(a) && truth(b)), nil
		case OpLOr:
			return boolValue(truth(a) || truth(b)), nil
		}
		return Value{}, fmt.Errorf("operator %s on address %s and %s", op, a, b)
	}
	x, y := a.Int, b.Int
	switch op {
	case OpAdd:
		return IntValue(x + y), nil
	case OpSub:
		return IntValue(x - y), nil
	case OpMul:
		return IntValue(x * y), nil
	case OpDiv:
		if y == 0 {
			return Value{}, fmt.Errorf("division by zero")
		}
		return IntValue(x / y), nil
	case OpMod:
		if y == 0 {
			return Value{}, fmt.Errorf("modulo by zero")
		}
		return IntValue(x % y), nil
	case OpAnd:
		return IntValue(x & y), nil
	case OpOr:
		return IntValue(x | y), nil
	case OpXor:
		return IntValue(x ^ y), nil
	case OpShl:
		return IntValue(x << uint64(y&63)), nil
	case OpShr:
		return IntValue(x >> uint64(y&63)), nil
	case OpEq:
		return boolValue(x == y), nil
	case OpNe:
		return boolValue(x != y), nil
	case OpLt:
		return boolValue(x < y), nil
	case OpLe:
		return boolValue(x <= y), nil
	case OpGt:
		return boolValue(x > y), nil
	case OpGe:
		return boolValue(x >= y), nil
	case OpLAnd:
		return boolValue(x != 0 && y != 0), nil
	case OpLOr:
		return boolValue(x != 0 || y != 0), nil
	}
	return Value{}, fmt.Errorf("%s is not a binary operator", op)
}

// ApplyUnary computes a unary operator on a concrete value.
func ApplyUnary(op Op, a Value) (Value, error) {
	switch op {
	case OpNot:
		return boolValue(!truth(a)), nil
	}
	if a.IsAddr() {
		return Value{}, fmt.Errorf("operator %s on address %s", op, a)
	}
	switch op {
	case OpNeg:
		return IntValue(-a.Int), nil
	case OpBNot:
		return IntValue(^a.Int), nil
	}
	return Value{}, fmt.Errorf("%s is not a unary operator", op)
}

// Truth tells whether a value counts as true in a condition (non-zero or
// an address).
func Truth(v Value) bool { return truth(v) }

func truth(v Value) bool { return v.IsAddr() || v.Int != 0 }

func boolValue(b bool) Value {
	if b {
		return IntValue(1)
	}
	return IntValue(0)
}

// DividesByZero tells whether op is a division or a remainder by the
// integer zero. The engines give such an operation the value 0, so that
// every execution has values, and report an execution that the model
// allows and that performs one as an error of the program (herd7 stops on
// it with an exception: it has no value).
func DividesByZero(op Op, b Value) bool {
	return (op == OpDiv || op == OpMod) && !b.IsAddr() && b.Int == 0
}

// ApplyTotal is Apply with a division or remainder by zero giving 0 (see
// DividesByZero).
func ApplyTotal(op Op, a, b Value) (Value, error) {
	if DividesByZero(op, b) {
		return IntValue(0), nil
	}
	return Apply(op, a, b)
}

// DivisionByZeroError is the error of a test in which an execution that
// the model allows divides by zero (or takes a remainder by zero); At is
// the instruction, as file:line:col: thread.
type DivisionByZeroError struct{ At string }

func (e *DivisionByZeroError) Error() string {
	return e.At + ": division by zero in an execution the model allows"
}
