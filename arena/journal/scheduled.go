package journal

import (
	"fmt"

	"github.com/arena-games/arena/arena/schedule"
)

// CheckScheduled checks that a journal record is the game the schedule s
// gives its ID and, with a shard, that the game belongs to that slice. It is called
// once the manifest has shown that the configuration is the directory's:
// a record that does not match is the journal's fault, an error wrapping
// ErrDamaged; a game of another slice is an error wrapping ErrOtherShard.
func CheckScheduled(s *schedule.Schedule, rec *Record, sh *schedule.Shard) error {
	g, ok := s.Game(rec.ID)
	if !ok {
		return fmt.Errorf("%w: %s holds game %d, but the tournament has %d games (the line was changed, or comes from another tournament)",
			ErrDamaged, File, rec.ID, s.Len())
	}
	if rec.White != g.White || rec.Black != g.Black || rec.Round != g.Round || rec.PairKey != g.PairKey || rec.Opening.Index != g.Opening+1 {
		return fmt.Errorf("%w: %s game %d is %s-%s (round %d, opening %d), but in the tournament it is %s-%s (round %d, opening %d) (the line was changed, or comes from another tournament)",
			ErrDamaged, File, rec.ID, rec.White, rec.Black, rec.Round, rec.Opening.Index, g.White, g.Black, g.Round, g.Opening+1)
	}
	if sh != nil && !sh.Has(rec.ID) {
		return &wrongSliceError{id: rec.ID, shard: *sh}
	}
	return nil
}

// wrongSliceError is a journal record of a game of another slice.
type wrongSliceError struct {
	id    int
	shard schedule.Shard
}

func (e *wrongSliceError) Error() string {
	return fmt.Sprintf("%s holds game %d, which belongs to slice %d/%d, not to slice %s",
		File, e.id, schedule.SliceOf(e.id, e.shard.Count), e.shard.Count, e.shard)
}

func (e *wrongSliceError) Is(target error) bool { return target == ErrOtherShard }
