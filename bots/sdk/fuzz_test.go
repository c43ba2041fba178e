package sdk

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzRun feeds arbitrary arena output to a bot: Run must neither panic
// nor hang, whatever it reads.
func FuzzRun(f *testing.F) {
	f.Add("arena 1\nisready\nnewgame game checkers preset american color black\nposition startpos\ngo movetime 1\n")
	f.Add("arena 1\nnewgame game cheversi preset cheversi color white\nposition startpos\ngo\nposition startpos moves K@e4 Q@d5\ngo\ngameover result 1-0 reason score\nquit\n")
	f.Add("newgame game cheversi preset echeversi rules scoring=squares color black\nposition text 8/8/8/8/4K3/8/8/8 b 1 e4\nlegalmoves Q@a1\ngo movetime 5\n")
	f.Add("ping 1\nsetoption name x value y\nposition text B:W21:B1 moves 1-5\n\xff\n")
	f.Fuzz(func(t *testing.T, in string) {
		bot := Bot{Move: firstMove}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := Run(ctx, bot, strings.NewReader(in), io.Discard)
		if ctx.Err() != nil {
			t.Fatalf("Run did not finish on input %q: %v", in, err)
		}
	})
}
