package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// dockerEnv asks for the test that builds the Dockerfile's image and runs
// a tournament in containers (.ci/run sets it).
const dockerEnv = "ARENA_DOCKER"

// docker runs the docker command (or docker-compose, when args[0] is
// "compose"), and returns its output; it fails the test on an error.
func docker(t *testing.T, env []string, args ...string) string {
	t.Helper()
	out, err := dockerRun(env, args...)
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func dockerRun(env []string, args ...string) (string, error) {
	name := "docker"
	if args[0] == "compose" {
		name, args = "docker-compose", args[1:]
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// busyboxRoot lays out, in a new directory, the root file system of a
// minimal Linux: busybox's commands, /tmp and the users root and nobody.
func busyboxRoot(t *testing.T) string {
	t.Helper()
	bb, err := exec.LookPath("busybox")
	if err != nil {
		t.Fatalf("busybox, to make the images the build starts from: %v", err)
	}
	root := t.TempDir()
	for _, d := range []string{"bin", "tmp", "etc", "root", "usr/local/bin"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(root, "tmp"), 0o1777)
	data, err := os.ReadFile(bb)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", "busybox"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	list, err := exec.Command(bb, "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Fields(string(list)) {
		if name != "busybox" {
			os.Symlink("busybox", filepath.Join(root, "bin", name))
		}
	}
	os.WriteFile(filepath.Join(root, "etc", "passwd"), []byte("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n"), 0o644)
	os.WriteFile(filepath.Join(root, "etc", "group"), []byte("root:x:0:\nnogroup:x:65534:\n"), 0o644)
	return root
}

// dockerImport makes an image of the directory trees of dirs, pairs of a
// directory and the path it is found at in the image, with the
// Dockerfile instructions changes. Each tree but the first (the root)
// must have a base name of its own, which is no prefix of the others'
// paths in the image.
func dockerImport(t *testing.T, tag string, dirs [][2]string, changes ...string) {
	t.Helper()
	// Not what building needs of a Go toolchain: the toolchain's own
	// sources, tests and documents.
	tarArgs := []string{"-c", "--anchored", "--exclude=go/src/cmd", "--exclude=go/test", "--exclude=go/api", "--exclude=go/doc", "--exclude=go/misc"}
	for _, d := range dirs {
		dir, at := d[0], d[1]
		if at == "/" {
			tarArgs = append(tarArgs, "-C", dir, ".")
			continue
		}
		// Archive dir's tree under at: tar's transform renames the paths
		// (not the targets of symbolic links).
		parent, base := filepath.Split(filepath.Clean(dir))
		at = strings.Trim(at, "/")
		tarArgs = append(tarArgs, "--transform", fmt.Sprintf("s,^%s\\(/\\|$\\),%s\\1,S", base, at), "-C", parent, base)
	}
	tarCmd := exec.Command("tar", tarArgs...)
	var tarErr bytes.Buffer
	tarCmd.Stderr = &tarErr
	args := []string{"import"}
	for _, c := range changes {
		args = append(args, "--change", c)
	}
	imp := exec.Command("docker", append(args, "-", tag)...)
	pipe, err := tarCmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	imp.Stdin = pipe
	var impOut bytes.Buffer
	imp.Stdout, imp.Stderr = &impOut, &impOut
	if err := tarCmd.Start(); err != nil {
		t.Fatal(err)
	}
	impErr := imp.Run()
	tarWait := tarCmd.Wait()
	if impErr != nil || tarWait != nil {
		t.Fatalf("docker import %s: %v, tar: %v\n%s%s", tag, impErr, tarWait, impOut.String(), tarErr.String())
	}
	t.Cleanup(func() {
		// The images of the Dockerfile's build stage, children of the
		// build's base image, go first.
		dockerRun(nil, "image", "prune", "-f", "--filter", "label=arena.stage=build")
		dockerRun(nil, "rmi", "-f", tag)
	})
}

// baseImages makes the two images the Dockerfile starts from, without a
// registry: a busybox system (the image's base), and the same with this
// machine's Go toolchain and the modules the arena needs (the build's).
func baseImages(t *testing.T, suffix string) (goImage, baseImage string) {
	t.Helper()
	root := busyboxRoot(t)
	baseImage = "arena-test-base:" + suffix
	dockerImport(t, baseImage, [][2]string{{root, "/"}}, "ENV PATH=/usr/local/bin:/bin")

	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	hostProxy, _ := exec.Command("go", "env", "GOMODCACHE", "GOPROXY").Output()
	lines := strings.Fields(string(hostProxy))
	mod := filepath.Join(t.TempDir(), "arena-modules")
	dl := exec.Command("go", "mod", "download")
	dl.Dir = filepath.Join("..", "..")
	// From this machine's module cache first, so that a machine that built
	// the arena fetches nothing.
	dl.Env = append(os.Environ(), "GOMODCACHE="+mod, "GOFLAGS=-modcacherw",
		"GOPROXY=file://"+filepath.Join(lines[0], "cache", "download")+","+lines[1])
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	// The Dockerfile's build, done here first into a build cache the image
	// is given, which the build in the container then finds: the cache's
	// keys of a -trimpath build name no directory, and the toolchain is
	// this one, at the same path. The cache is kept between runs.
	userCache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(userCache, "arena-test-docker", "go-build")
	warm := exec.Command("go", "build", "-trimpath", "-o", os.DevNull, "./cmd/arena")
	warm.Dir = filepath.Join("..", "..")
	warm.Env = append(os.Environ(), "GOCACHE="+cache, "GOMODCACHE="+mod, "GOFLAGS=-buildvcs=false -modcacherw", "GOPROXY=off", "CGO_ENABLED=0")
	if out, err := warm.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	goImage = "arena-test-go:" + suffix
	dockerImport(t, goImage, [][2]string{{root, "/"}, {strings.TrimSpace(string(goroot)), "/usr/local/go"}, {mod, "/go/pkg/mod"}, {cache, "/root/.cache/go-build"}},
		"ENV PATH=/usr/local/go/bin:/usr/local/bin:/bin", "ENV HOME=/root", "ENV GOMODCACHE=/go/pkg/mod", "ENV GOCACHE=/root/.cache/go-build",
		"ENV GOPROXY=off", "ENV GOSUMDB=off", "ENV GOTOOLCHAIN=local", "ENV GOFLAGS=-buildvcs=false")
	return goImage, baseImage
}

// TestDocker builds the Dockerfile's image and plays a tournament with
// configs/cluster/compose.yaml: NATS, the coordinator and two workers,
// each a container. One worker is cut off the network and the other
// killed (SIGKILL) while they hold batches; the killed one is started
// again, and plays the batches of both while the other is cut off, which
// then comes back. The journal holds every game of the schedule once, the
// same game as in a local run.
func TestDocker(t *testing.T) {
	if os.Getenv(dockerEnv) == "" {
		t.Skipf("set %s=1 to build the image and play a tournament in containers", dockerEnv)
	}
	suffix := strconv.Itoa(os.Getpid())
	goImage, baseImage := baseImages(t, suffix)
	image := "arena-test:" + suffix
	start := time.Now()
	docker(t, nil, "build", "-q", "-t", image, "--build-arg", "GO_IMAGE="+goImage, "--build-arg", "BASE_IMAGE="+baseImage, filepath.Join("..", ".."))
	t.Cleanup(func() { dockerRun(nil, "rmi", "-f", image) })
	t.Logf("image built in %v", time.Since(start).Round(time.Second))
	if out := docker(t, nil, "run", "--rm", image, "version"); !strings.Contains(out, "arena") {
		t.Errorf("arena version in the image: %q", out)
	}

	exe := buildArena(t)
	root := t.TempDir()
	configDir := filepath.Join(root, "config")
	os.Mkdir(configDir, 0o755)
	config := filepath.Join(configDir, "w.toml")
	os.WriteFile(config, []byte(strings.ReplaceAll(fmt.Sprintf(workersConfig, 10), "concurrency = 2\n", "")), 0o644)
	whole := filepath.Join(root, "whole")
	if out, err := exec.Command(exe, "run", "--quiet", "--out", whole, config).CombinedOutput(); err != nil {
		t.Fatalf("local run: %v\n%s", err, out)
	}
	local := untimedGames(t, whole)

	project := "arenatest" + suffix
	results := filepath.Join(root, "results")
	env := []string{"ARENA_IMAGE=" + image, "ARENA_CONFIG_DIR=" + configDir, "ARENA_CONFIG=w.toml", "ARENA_RESULTS=" + results,
		"ARENA_WORKER_TIMEOUT=3s", "ARENA_BATCH=1", "ARENA_WORKER_CONCURRENCY=1"}
	compose := []string{"compose", "-p", project, "-f", filepath.Join("..", "..", "configs", "cluster", "compose.yaml")}
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := dockerRun(env, append(compose, "logs", "--no-color", "--timestamps")...)
			t.Logf("the containers' logs:\n%s", out)
		}
		dockerRun(env, append(compose, "down", "-v", "-t", "5")...)
	})
	docker(t, env, append(compose, "up", "-d", "--scale", "worker=2")...)
	out := filepath.Join(results, "tournament")
	cut, killed := project+"_worker_1", project+"_worker_2"
	network := project + "_default"

	waitFor(t, 3*time.Minute, "4 games", func() bool { return journalGames(out) >= 4 })
	docker(t, nil, "network", "disconnect", network, cut)
	docker(t, nil, "kill", killed) // SIGKILL
	atCut := journalGames(out)
	t.Logf("%s cut off and %s killed at %d games", cut, killed, atCut)
	time.Sleep(time.Second)
	docker(t, nil, "start", killed)
	waitFor(t, 3*time.Minute, "games while a worker is cut off", func() bool { return journalGames(out) >= atCut+4 })
	// A cut that sends nothing back is noticed by the missed pings (the
	// tournament may be over by then: NATS runs on).
	waitFor(t, 2*time.Minute, cut+" to notice the cut", func() bool {
		out, _ := dockerRun(nil, "logs", cut)
		return strings.Contains(out, "lost the connection to NATS")
	})
	docker(t, nil, "network", "connect", network, cut)
	t.Logf("%s back at %d games", cut, journalGames(out))

	coordinator := project + "_coordinator_1"
	wait := exec.Command("docker", "wait", coordinator)
	done := make(chan string, 1)
	go func() { // ends with the coordinator, or when the test removes it
		b, _ := wait.Output()
		done <- strings.TrimSpace(string(b))
	}()
	select {
	case code := <-done:
		if code != "0" {
			t.Fatalf("coordinator exit status %s", code)
		}
	case <-time.After(5 * time.Minute):
		wait.Process.Kill()
		t.Fatalf("the coordinator did not finish within 5 minutes (%d games)", journalGames(out))
	}
	if n := checkSameGames(t, out, local); n != len(local) {
		t.Errorf("journal has %d games, the schedule %d", n, len(local))
	}
	waitFor(t, 2*time.Minute, cut+" to reconnect", func() bool {
		out, _ := dockerRun(nil, "logs", cut)
		return strings.Contains(out, "reconnected to NATS")
	})
	killedLog := docker(t, nil, "logs", killed)
	if !strings.Contains(killedLog, "again (delivery") {
		t.Errorf("%s, started again, took no batch of the others again:\n%s", killed, killedLog)
	}
	if coordLog := docker(t, nil, "logs", coordinator); !strings.Contains(coordLog, "20 of 20 scheduled games played") {
		t.Errorf("the coordinator's standings do not count the 20 games:\n%s", coordLog)
	}
}
