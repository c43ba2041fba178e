package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	strays, err := topLevelStrays(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strays {
		t.Errorf("top level holds %s, which the layout does not have", name)
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

// topLevel are the entries the layout allows at the top of the repository.
var topLevel = map[string]bool{
	"cmd": true, "arena": true, "protocol": true, "bots": true, "configs": true, "reports": true,
	"go.mod": true, "go.sum": true, "README.md": true, ".ci": true, "docs": true, "Dockerfile": true,
	".git": true, ".gitignore": true, ".dockerignore": true,
}

// topLevelStrays returns the entries at the top of the checkout in root
// that the layout does not have, leaving out those its .gitignore ignores:
// what following the README makes (results/ of the quickstart, bin/ of
// go build -o bin/arena) is not part of the repository.
func topLevelStrays(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	ignore, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	var strays []string
	for _, e := range entries {
		if !topLevel[e.Name()] && !ignored(string(ignore), e.Name(), e.IsDir()) {
			strays = append(strays, e.Name())
		}
	}
	return strays, nil
}

// ignored reports whether a .gitignore holding the patterns in gitignore
// ignores the top-level entry name: its patterns without a slash inside,
// "/results/" or "*.test", are matched against the name, those ending in
// a slash only against directories.
func ignored(gitignore, name string, dir bool) bool {
	for _, line := range strings.Split(gitignore, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "!") {
			continue
		}
		dirOnly := strings.HasSuffix(line, "/")
		pattern := strings.Trim(line, "/")
		if strings.Contains(pattern, "/") || (dirOnly && !dir) {
			continue
		}
		if ok, _ := filepath.Match(pattern, name); ok {
			return true
		}
	}
	return false
}

// TestTopLevelStrays checks that what the README's commands leave in a
// checkout (the quickstart's results/, go build -o bin/arena's bin/),
// which .gitignore ignores, does not fail TestLayers, while an entry the
// layout does not have still does.
func TestTopLevelStrays(t *testing.T) {
	root := t.TempDir()
	for _, dir := range []string{"cmd", "results/quickstart", "bin", "util"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		".gitignore": "# built and played\n/results/\n*.test\n/bin/\n/notes/\n",
		"go.mod":     "module x\n", "arena.test": "", "notes": "", "bin/arena": "",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := topLevelStrays(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"notes", "util"}; !slices.Equal(got, want) {
		t.Errorf("strays %q, want %q", got, want)
	}
}
