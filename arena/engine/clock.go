package engine

import (
	"fmt"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/protocol"
)

// TimeControl is one side's time control: a fixed time per move (Move, when
// Base is 0) or a base time with an increment per move, plus a margin the
// arena allows for process overhead before it calls a move late. With Moves
// > 0 the base time is a period for that many moves: after each Moves moves
// the clock gains Base again, whatever is left carrying over (cutechess's
// "40/60" is Moves 40, Base 60s).
type TimeControl struct {
	Move      time.Duration
	Base      time.Duration
	Increment time.Duration
	Moves     int
	Margin    time.Duration
}

// Fixed reports whether tc gives a fixed time per move.
func (tc TimeControl) Fixed() bool { return tc.Base == 0 }

// Clock keeps the time of both sides of one game. The sides may have
// different time controls.
type Clock struct {
	tc    [2]TimeControl
	left  [2]time.Duration
	moves [2]int // moves charged per side
}

// NewClock returns a clock at the start of a game.
func NewClock(white, black TimeControl) *Clock {
	return &Clock{
		tc:   [2]TimeControl{white, black},
		left: [2]time.Duration{white.Base, black.Base},
	}
}

// Request returns the clock to send with side's move request and the time
// side has for the move: its fixed time per move, or what is left on its
// clock. A side on a clock sees both sides' times and increments, and,
// with moves per period, how many moves it has left in the current period
// (MovesToGo); an opponent on a fixed time per move shows that time as its
// own.
func (c *Clock) Request(side game.Color) (pc protocol.Clock, allowed time.Duration) {
	tc := c.tc[side]
	if tc.Fixed() {
		return protocol.Clock{MoveTime: tc.Move}, tc.Move
	}
	var t [2]time.Duration
	for s := range c.tc {
		t[s] = c.left[s]
		if c.tc[s].Fixed() {
			t[s] = c.tc[s].Move
		}
	}
	pc = protocol.Clock{
		WTime: t[game.White], BTime: t[game.Black],
		WInc: c.tc[game.White].Increment, BInc: c.tc[game.Black].Increment,
	}
	if tc.Moves > 0 {
		pc.MovesToGo = tc.Moves - c.moves[side]%tc.Moves
	}
	return pc, c.left[side]
}

// Deadline returns the latest time a reply to a request sent at sent may
// arrive: the time side has plus its margin.
func (c *Clock) Deadline(side game.Color, sent time.Time) time.Time {
	_, allowed := c.Request(side)
	return sent.Add(allowed + c.tc[side].Margin)
}

// Charge books a move of side that took elapsed: a clock loses that time
// and gains the increment, and the base time again when the move ends a
// period. It returns an error when the move came later than side's time
// plus its margin (the move is lost on time); the clock is charged either
// way.
func (c *Clock) Charge(side game.Color, elapsed time.Duration) error {
	_, allowed := c.Request(side)
	tc := c.tc[side]
	c.moves[side]++
	if !tc.Fixed() {
		c.left[side] = max(c.left[side]-elapsed, 0) + tc.Increment
		if tc.Moves > 0 && c.moves[side]%tc.Moves == 0 {
			c.left[side] += tc.Base
		}
	}
	if elapsed > allowed+tc.Margin {
		return fmt.Errorf("move took %v (measured by the arena), allowed %v + margin %v", elapsed.Round(time.Microsecond), allowed, tc.Margin)
	}
	return nil
}
