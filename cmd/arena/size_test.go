package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The limits on a non-test function of the repository (its code
// style): its lines, from func to the closing brace, and its
// cyclomatic complexity.
const (
	maxFuncLines      = 80
	maxFuncComplexity = 20
)

// funcSize is the measure of one function.
type funcSize struct {
	name       string // package.Func or package.(*Type).Method
	pos        token.Position
	lines      int
	complexity int
}

// complexity is the cyclomatic complexity of a function as gocyclo counts
// it: 1, plus 1 for each if, for, range, non-default case of a switch or
// select, && and ||, function literals in the body included.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// funcName names fn as gocyclo does: pkg.Func or pkg.(*Recv).Method.
func funcName(pkg string, fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return pkg + "." + fn.Name.Name
	}
	recv := fn.Recv.List[0].Type
	if ix, ok := recv.(*ast.IndexExpr); ok {
		recv = ix.X
	}
	if ix, ok := recv.(*ast.IndexListExpr); ok {
		recv = ix.X
	}
	var typ string
	switch r := recv.(type) {
	case *ast.StarExpr:
		if id, ok := r.X.(*ast.Ident); ok {
			typ = "(*" + id.Name + ")"
		} else if ix, ok := r.X.(*ast.IndexExpr); ok {
			typ = "(*" + ix.X.(*ast.Ident).Name + ")"
		}
	case *ast.Ident:
		typ = r.Name
	}
	return pkg + "." + typ + "." + fn.Name.Name
}

// sizes measures every function of the non-test Go files under root.
func sizes(t *testing.T, root string) []funcSize {
	t.Helper()
	var out []funcSize
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			out = append(out, funcSize{
				name:       funcName(f.Name.Name, fn),
				pos:        start,
				lines:      end.Line - start.Line + 1,
				complexity: complexity(fn),
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFunctionSizes holds every non-test function of the repository to at
// most maxFuncLines lines and a cyclomatic complexity of maxFuncComplexity:
// a function past either does more than one thing and is split along what
// it does.
func TestFunctionSizes(t *testing.T) {
	all := sizes(t, filepath.Join("..", ".."))
	if len(all) < 1000 {
		t.Fatalf("measured only %d functions: is the test run from cmd/arena?", len(all))
	}
	for _, f := range all {
		if f.lines > maxFuncLines {
			t.Errorf("%s: %s has %d lines, more than %d", f.pos, f.name, f.lines, maxFuncLines)
		}
		if f.complexity > maxFuncComplexity {
			t.Errorf("%s: %s has cyclomatic complexity %d, more than %d", f.pos, f.name, f.complexity, maxFuncComplexity)
		}
	}
}

// TestComplexityCount checks the measure itself on functions whose
// complexity is known.
func TestComplexityCount(t *testing.T) {
	src := `package p
func straight() { println() }
func branches(a, b bool, xs []int, c chan int) {
	if a && b || a { }
	for i := 0; i < 3; i++ { }
	for range xs { }
	switch { case a: ; case b, a: ; default: }
	select { case <-c: ; default: }
	f := func() { if b { } }
	f()
}
func long() {
	println()
	println()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"straight": {1, 1}, "branches": {10, 9}, "long": {1, 4}}
	for _, d := range f.Decls {
		fn := d.(*ast.FuncDecl)
		lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		if got := [2]int{complexity(fn), lines}; got != want[fn.Name.Name] {
			t.Errorf("%s: complexity and lines %v, want %v", fn.Name.Name, got, want[fn.Name.Name])
		}
	}
}
