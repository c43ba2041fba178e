package protocol

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// readAll reads lines until an error and returns them with that error.
func readAll(r *Reader) (lines []string, errs []error, final error) {
	for {
		line, err := r.ReadLine()
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return lines, errs, err
		}
		var pe *ProtocolError
		if errors.As(err, &pe) {
			errs = append(errs, err)
			continue
		}
		if err != nil {
			return lines, errs, err
		}
		lines = append(lines, line)
	}
}

func TestReaderLines(t *testing.T) {
	maxLine := strings.Repeat("m", MaxLineLength)
	tests := []struct {
		name  string
		in    string
		lines []string
		errs  []error
		final error
	}{
		{"LF", "isready\nquit\n", []string{"isready", "quit"}, nil, io.EOF},
		{"CRLF", "isready\r\nquit\r\n", []string{"isready", "quit"}, nil, io.EOF},
		{"blank lines kept", "\n\r\nquit\n", []string{"", "", "quit"}, nil, io.EOF},
		{"empty stream", "", nil, nil, io.EOF},
		{"unterminated last line", "isready\nqui", []string{"isready"}, nil, io.ErrUnexpectedEOF},
		{"longest line", maxLine + "\n" + maxLine + "\r\n", []string{maxLine, maxLine}, nil, io.EOF},
		{"too long then good", maxLine + "x\nquit\n", []string{"quit"}, []error{ErrLineTooLong}, io.EOF},
		{"very long then good", strings.Repeat("y", 5*MaxLineLength) + "\r\nquit\n",
			[]string{"quit"}, []error{ErrLineTooLong}, io.EOF},
		{"too long at EOF", maxLine + "xx", nil, []error{ErrLineTooLong}, io.ErrUnexpectedEOF},
		{"bad UTF-8 then good", "move \xc3\x28\nquit\n", []string{"quit"}, []error{ErrNotUTF8}, io.EOF},
		{"UTF-8 text", "id name Žluťoučký kůň\n", []string{"id name Žluťoučký kůň"}, nil, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// OneByteReader exercises lines split over many reads.
			for _, src := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				lines, errs, final := readAll(NewReader(src))
				if !reflect.DeepEqual(lines, tt.lines) {
					t.Errorf("lines = %.60q, want %.60q", lines, tt.lines)
				}
				if len(errs) != len(tt.errs) {
					t.Fatalf("errors = %v, want %v", errs, tt.errs)
				}
				for i := range errs {
					if !errors.Is(errs[i], tt.errs[i]) {
						t.Errorf("error %d = %v, want %v", i, errs[i], tt.errs[i])
					}
				}
				if final != tt.final {
					t.Errorf("final error = %v, want %v", final, tt.final)
				}
			}
		})
	}
}

func TestReaderTooLongErrorIsPrompt(t *testing.T) {
	// A bot that writes without end must be reported once the limit is
	// passed, not when (if ever) the line ends.
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		chunk := bytes.Repeat([]byte("z"), 4096)
		for {
			if _, err := pw.Write(chunk); err != nil {
				return // the reader side was closed
			}
		}
	}()
	_, err := NewReader(pr).ReadLine()
	pr.Close()
	wg.Wait()
	if !errors.Is(err, ErrLineTooLong) {
		t.Errorf("ReadLine on an endless line = %v, want ErrLineTooLong", err)
	}
}

func TestReaderUnderlyingError(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("quit\nmov"), iotest.ErrReader(boom)))
	if line, err := r.ReadLine(); line != "quit" || err != nil {
		t.Fatalf("ReadLine = %q, %v; want quit", line, err)
	}
	if _, err := r.ReadLine(); !errors.Is(err, boom) {
		t.Errorf("ReadLine = %v, want the reader's error", err)
	}
}

// stutterReader returns its chunks one per Read, each followed by a
// passing error, as a pipe with a read deadline does.
type stutterReader struct {
	chunks []string
	err    bool
}

var errStutter = errors.New("try again")

func (s *stutterReader) Read(p []byte) (int, error) {
	if s.err = !s.err; !s.err {
		return 0, errStutter
	}
	if len(s.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.chunks[0])
	s.chunks = s.chunks[1:]
	return n, nil
}

func TestReaderResumesAfterError(t *testing.T) {
	r := NewReader(&stutterReader{chunks: []string{"mo", "ve K@", "e4\ninfo", " depth 1\n"}})
	var lines []string
	for range 20 {
		line, err := r.ReadLine()
		if errors.Is(err, errStutter) {
			continue
		}
		if err != nil {
			if err != io.EOF {
				t.Fatalf("ReadLine: %v", err)
			}
			break
		}
		lines = append(lines, line)
	}
	if want := []string{"move K@e4", "info depth 1"}; !reflect.DeepEqual(lines, want) {
		t.Errorf("lines = %q, want %q", lines, want)
	}
}

func TestReadMessage(t *testing.T) {
	in := "\n  \nping 1\r\nfrobnicate\nmove\nmove \xff\nmove K@e4\n"
	r := NewReader(strings.NewReader(in))
	want := []struct {
		m   Message
		err error
	}{
		{Ping{Token: "1"}, nil},
		{nil, ErrUnknownCommand},
		{nil, ErrSyntax},
		{nil, ErrNotUTF8},
		{Move{Move: "K@e4"}, nil},
		{nil, io.EOF},
	}
	for i, w := range want {
		m, err := r.ReadMessage()
		if !reflect.DeepEqual(m, w.m) || !errors.Is(err, w.err) {
			t.Errorf("message %d = %v, %v; want %v, %v", i, m, err, w.m, w.err)
		}
	}
}

// TestReaderPending checks that Pending reports what the Reader holds:
// lines read together, a line cut short by a passing error, and the rest
// of an over-long line still to be skipped.
func TestReaderPending(t *testing.T) {
	r := NewReader(&stutterReader{chunks: []string{"move K@e4\ninfo depth 1\n", "mo", "ve Q@d1\n"}})
	step := func(wantLine string, wantErr error, wantPending bool) {
		t.Helper()
		line, err := r.ReadLine()
		if line != wantLine || !errors.Is(err, wantErr) {
			t.Fatalf("ReadLine = %q, %v; want %q, %v", line, err, wantLine, wantErr)
		}
		if got := r.Pending(); got != wantPending {
			t.Fatalf("after %q, %v: Pending = %v, want %v", line, err, got, wantPending)
		}
	}
	if r.Pending() {
		t.Fatal("a new Reader is Pending")
	}
	step("move K@e4", nil, true) // the info line came with it
	step("info depth 1", nil, false)
	step("", errStutter, false) // nothing came
	step("", errStutter, true)  // "mo" is held, the read cut short
	step("move Q@d1", nil, false)

	long := NewReader(strings.NewReader(strings.Repeat("x", MaxLineLength+10000) + "\n"))
	if _, err := long.ReadLine(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("over-long line: err = %v, want ErrLineTooLong", err)
	}
	if !long.Pending() {
		t.Error("Pending = false with the rest of an over-long line to skip")
	}
}
