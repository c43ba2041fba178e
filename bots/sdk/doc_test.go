package sdk_test

import (
	"go/ast"
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
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for name, obj := range f.Scope.Objects {
				if ast.IsExported(name) && (obj.Kind == ast.Fun || obj.Kind == ast.Typ) {
					exported[name] = true
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
