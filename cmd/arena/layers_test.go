package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// module is the import path of the arena's module.
const module = "github.com/arena-games/arena"

// TestLayers checks the shape of the repository that the README's layout
// table describes: the fixed top-level entries, and imports that go down
// the layers only — cmd → reports and bots → arena → protocol. Nothing
// under arena/ imports reports, bots, cmd or configs; protocol imports
// only arena/game of the module; reports and bots import no command. Test
// files are not held to it: an external test package may bring the
// built-in bots in.
func TestLayers(t *testing.T) {
	root := filepath.Join("..", "..")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{
		"cmd": true, "arena": true, "protocol": true, "bots": true, "configs": true, "reports": true,
		"go.mod": true, "go.sum": true, "README.md": true, ".ci": true, "docs": true, "Dockerfile": true,
		".git": true, ".gitignore": true, ".dockerignore": true,
	}
	for _, e := range entries {
		if !allowed[e.Name()] {
			t.Errorf("top level holds %s, which the layout does not have", e.Name())
		}
	}

	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := map[string][]string{
		"arena":    {"reports", "bots", "cmd", "configs"},
		"protocol": {"arena", "reports", "bots", "cmd", "configs"},
		"reports":  {"cmd"},
		"bots":     {"cmd"},
		"configs":  {"cmd", "reports", "bots"},
	}
	allowedUp := map[string]bool{"protocol " + module + "/arena/game": true}
	packages := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], module+"/") {
			continue
		}
		packages++
		pkg := strings.TrimPrefix(f[0], module+"/")
		layer, _, _ := strings.Cut(pkg, "/")
		for _, imp := range f[1:] {
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok || allowedUp[pkg+" "+imp] {
				continue
			}
			top, _, _ := strings.Cut(rel, "/")
			for _, bad := range forbidden[layer] {
				if top == bad {
					t.Errorf("%s imports %s: up the layers", pkg, rel)
				}
			}
		}
	}
	if packages < 20 {
		t.Fatalf("go list gave %d of the module's packages:\n%s", packages, out)
	}
}
