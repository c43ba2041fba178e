package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

func init() {
	register(command{
		name:    "version",
		summary: "print the arena's version and the revision it was built from",
		run: func(_ context.Context, args []string) error {
			fs := newFlagSet("version", "")
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() > 0 {
				return usagef("unexpected argument %q", fs.Arg(0))
			}
			info, _ := debug.ReadBuildInfo()
			writeVersion(os.Stdout, info)
			return nil
		},
	})
}

// writeVersion describes the build from its build information (nil when
// the binary has none): the module and its version, the version control
// revision with its time and whether the working tree had changes, and the
// Go release, e.g.
//
//	arena v1.2.0 (github.com/arena-games/arena)
//	revision 4f3c2a1b9e0d (2025-01-31T10:00:00Z), with uncommitted changes
//	built with go1.25.0 for linux/amd64
func writeVersion(w io.Writer, info *debug.BuildInfo) {
	version, module := "(unknown)", "github.com/arena-games/arena"
	settings := map[string]string{}
	if info != nil {
		if info.Main.Path != "" {
			module = info.Main.Path
		}
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		if info.Main.Sum != "" {
			version += " " + info.Main.Sum
		}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	if version == "(devel)" {
		version = "(development build)"
	}
	fmt.Fprintf(w, "arena %s (%s)\n", version, module)
	if rev := settings["vcs.revision"]; rev != "" {
		var b strings.Builder
		fmt.Fprintf(&b, "revision %s", rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " (%s)", t)
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", with uncommitted changes")
		}
		fmt.Fprintln(w, b.String())
	} else {
		fmt.Fprintln(w, "revision unknown (built without version control information)")
	}
	goVersion := runtime.Version()
	if info != nil && info.GoVersion != "" {
		goVersion = info.GoVersion
	}
	fmt.Fprintf(w, "built with %s for %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
