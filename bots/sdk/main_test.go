package sdk

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// When the test binary runs with this variable set it is a bot using Main.
const mainEnv = "SDK_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	switch os.Getenv(mainEnv) {
	case "play":
		Main(Bot{Name: "main", Games: []string{"checkers"}, Move: firstMove})
	case "fail":
		Main(Bot{Name: "failing", Move: firstMove})
	}
	os.Exit(m.Run())
}

func TestMainFunc(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no test executable: %v", err)
	}
	tests := []struct {
		mode, in   string
		wantOut    string
		wantStderr string
		wantCode   int
	}{
		{"play", "arena 1\nnewgame game checkers preset american color black\nposition startpos\ngo movetime 10\n",
			"id name main\ngames checkers\nrequest movestogo\narenaok\nmove 9-13\n", "", 0},
		{"play", "arena 1\nhello\n", "id name main\ngames checkers\nrequest movestogo\narenaok\n", "unknown command", 0},
		{"fail", "arena 7\n", "", "failing: sdk: unsupported protocol version", 1},
	}
	for _, tt := range tests {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), mainEnv+"="+tt.mode)
		cmd.Stdin = strings.NewReader(tt.in)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", tt.mode, err)
		}
		if out.String() != tt.wantOut || code != tt.wantCode || !strings.Contains(stderr.String(), tt.wantStderr) {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q",
				tt.mode, tt.in, code, out.String(), stderr.String(), tt.wantCode, tt.wantOut, tt.wantStderr)
		}
	}
}
