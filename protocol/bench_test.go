package protocol

import (
	"io"
	"strings"
	"testing"
	"time"
)

// benchLines are typical lines: a long move request and a bot's answer.
var benchLines = []string{
	"position startpos moves " + strings.Repeat("11-15 23-19 8-11 22-17 ", 20),
	"go wtime 59874 btime 60000 winc 1000 binc 1000",
	"info depth 12 score -35 nodes 1234567 time 950 pv 11-15 23-19 8-11 22-17 4-8 17-13",
	"move 1x10x19",
}

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		for _, l := range benchLines {
			if _, err := Parse(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkReadMessage(b *testing.B) {
	in := strings.Repeat(strings.Join(benchLines, "\n")+"\n", 1000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r := NewReader(strings.NewReader(in))
		for {
			if _, err := r.ReadMessage(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

func BenchmarkWriteMessage(b *testing.B) {
	w := NewWriter(io.Discard)
	pos := Position{Moves: strings.Fields(strings.Repeat("11-15 23-19 8-11 22-17 ", 20))}
	g := Go{Clock: Clock{WTime: time.Minute, BTime: time.Minute, WInc: time.Second, BInc: time.Second}}
	for b.Loop() {
		if err := w.WriteMessage(pos, g); err != nil {
			b.Fatal(err)
		}
	}
}
