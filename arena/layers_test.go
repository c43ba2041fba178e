package arena_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of the repository's module.
const module = "github.com/arena-games/arena/"

// upper are the trees no package under arena/ may import.
var upper = []string{"reports", "bots", "cmd", "configs"}

// TestLayers checks that no package under arena/ imports a package of the
// layers above it (see the package documentation). Test files are
// checked too, but for external test packages (package x_test), which are
// not part of the package and may drive it end to end.
func TestLayers(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "_test.go") && strings.HasSuffix(f.Name.Name, "_test") {
			return nil
		}
		checked++
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			rel, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			for _, u := range upper {
				if rel == u || strings.HasPrefix(rel, u+"/") {
					t.Errorf("arena/%s imports %s: nothing under arena/ may import %s", filepath.ToSlash(path), imp, strings.Join(upper, ", "))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("checked only %d files: is the test run from arena/?", checked)
	}
}
