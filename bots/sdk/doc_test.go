package sdk_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocumentedEntryPoints checks what the README and the protocol
// specification say of the SDK: every sdk.Name they cite is a function or
// type of the package, and both give sdk.Main as a program's entry point
// and say what sdk.Run is for, in the same words.
func TestDocumentedEntryPoints(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	exported := map[string]bool{}
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					exported[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.IsExported() {
						exported[ts.Name.Name] = true
					}
				}
			}
		}
	}
	cite := regexp.MustCompile(`sdk\.([A-Z]\w*)`)
	for _, doc := range []string{filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "protocol", "PROTOCOL.md")} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(data)), " ")
		for _, m := range cite.FindAllStringSubmatch(text, -1) {
			if !exported[m[1]] {
				t.Errorf("%s cites sdk.%s, which the package does not have", doc, m[1])
			}
		}
		for _, want := range []string{"call `sdk.Main(bot)` from", "`sdk.Run(ctx, bot, in, out)` is the same"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not say %q", doc, want)
			}
		}
	}
}
