package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/protocol"
)

func TestClock(t *testing.T) {
	const ms = time.Millisecond
	fixed := TimeControl{Move: 100 * ms, Margin: 10 * ms}
	inc := TimeControl{Base: 1000 * ms, Increment: 50 * ms, Margin: 20 * ms}

	c := NewClock(inc, fixed)
	pc, allowed := c.Request(game.White)
	if want := (protocol.Clock{WTime: 1000 * ms, BTime: 100 * ms, WInc: 50 * ms}); pc != want || allowed != 1000*ms {
		t.Errorf("white's request = %+v, %v; want %+v, 1s (black on a fixed time shows it)", pc, allowed, want)
	}
	if err := c.Charge(game.White, 300*ms); err != nil {
		t.Errorf("Charge(white, 300ms) = %v, want in time", err)
	}
	if pc, allowed = c.Request(game.White); pc.WTime != 750*ms || allowed != 750*ms {
		t.Errorf("after 300ms with a 50ms increment: WTime %v, allowed %v; want 750ms", pc.WTime, allowed)
	}
	pc, allowed = c.Request(game.Black)
	if want := (protocol.Clock{MoveTime: 100 * ms}); pc != want || allowed != 100*ms {
		t.Errorf("black's request = %+v, %v; want %+v, 100ms", pc, allowed, want)
	}
	sent := time.Unix(0, 0)
	if got, want := c.Deadline(game.Black, sent), sent.Add(110*ms); !got.Equal(want) {
		t.Errorf("black's deadline = %v, want %v (move time plus margin)", got, want)
	}
	if got, want := c.Deadline(game.White, sent), sent.Add(770*ms); !got.Equal(want) {
		t.Errorf("white's deadline = %v, want %v (time left plus margin)", got, want)
	}

	// Within the margin is in time; beyond it is a loss on time, and the
	// fixed-time side's clock does not change.
	if err := c.Charge(game.Black, 105*ms); err != nil {
		t.Errorf("Charge(black, 105ms) = %v, want in time (within the margin)", err)
	}
	err := c.Charge(game.Black, 111*ms)
	if err == nil || !strings.Contains(err.Error(), "allowed 100ms + margin 10ms") {
		t.Errorf("Charge(black, 111ms) = %v, want a late move", err)
	}
	if err := c.Charge(game.White, 800*ms); err == nil {
		t.Error("Charge(white, 800ms) with 750ms left and a 20ms margin succeeded, want a late move")
	}
	if pc, _ := c.Request(game.White); pc.WTime != 50*ms {
		t.Errorf("a flagged clock keeps only the increment: WTime %v, want 50ms", pc.WTime)
	}
}

// TestClockMovesPerPeriod plays a 3/1s control: every third move the clock
// gains the period again, the rest carrying over.
func TestClockMovesPerPeriod(t *testing.T) {
	const ms = time.Millisecond
	period := TimeControl{Base: 1000 * ms, Moves: 3, Margin: 10 * ms}
	c := NewClock(period, TimeControl{Move: 100 * ms})
	steps := []struct {
		spend     time.Duration
		movesToGo int
		before    time.Duration // white's time before the move
	}{
		{200 * ms, 3, 1000 * ms},
		{300 * ms, 2, 800 * ms},
		{400 * ms, 1, 500 * ms},
		{100 * ms, 3, 1100 * ms}, // 100ms carried over plus the new period
		{0, 2, 1000 * ms},
	}
	for i, s := range steps {
		pc, allowed := c.Request(game.White)
		if pc.MovesToGo != s.movesToGo || pc.WTime != s.before || allowed != s.before {
			t.Errorf("move %d: movestogo %d, wtime %v, allowed %v; want %d, %v", i+1, pc.MovesToGo, pc.WTime, allowed, s.movesToGo, s.before)
		}
		if err := c.Charge(game.White, s.spend); err != nil {
			t.Errorf("move %d: Charge(%v) = %v", i+1, s.spend, err)
		}
	}
	if pc, _ := c.Request(game.Black); pc.MovesToGo != 0 {
		t.Errorf("the side on a fixed move time sees movestogo %d, want none", pc.MovesToGo)
	}
	// Running out inside a period loses on time even with a period ahead.
	late := NewClock(period, period)
	if err := late.Charge(game.Black, 1011*ms); err == nil {
		t.Error("a move taking the whole period plus more than the margin was in time")
	}
}
