package cfront

import (
	"context"
	"path/filepath"
	"testing"
)

func TestProfTmp(t *testing.T) {
	m := model(t, "imm")
	p, err := Lower(context.Background(), filepath.Join("..", "..", "examples", "c", "chase-lev.c"), Options{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		CheckProgram(context.Background(), p, CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "imm"})
	}
}
