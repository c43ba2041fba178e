package tournament

import "testing"

func TestMoveComment(t *testing.T) {
	score := func(n int) *int { return &n }
	tests := []struct {
		m    MoveRecord
		want string
	}{
		{MoveRecord{MS: 210.4, Info: &SearchInfo{Depth: 12, Score: score(35)}}, "{+0.35/12 0.21s}"},
		{MoveRecord{MS: 1234, Info: &SearchInfo{Depth: 7, Score: score(-250)}}, "{-2.50/7 1.2s}"},
		{MoveRecord{MS: 12345.6, Info: &SearchInfo{Depth: 30, Score: score(0)}}, "{0.00/30 12s}"},
		{MoveRecord{MS: 42.7, Info: &SearchInfo{Depth: 1, Score: score(3)}}, "{+0.03/1 0.043s}"},
		{MoveRecord{MS: 0.2, Info: &SearchInfo{Depth: 1, Score: score(1)}}, "{+0.01/1 0s}"},
		{MoveRecord{MS: 999.6}, "{1.0s}"},
		// Score and depth only together, as cutechess writes them.
		{MoveRecord{MS: 5, Info: &SearchInfo{Score: score(10)}}, "{0.005s}"},
		{MoveRecord{MS: 5, Info: &SearchInfo{Depth: 4, Nodes: 100}}, "{0.005s}"},
	}
	for _, tt := range tests {
		if got := string(appendMoveComment(nil, &tt.m)); got != tt.want {
			t.Errorf("comment for %+v = %s, want %s", tt.m, got, tt.want)
		}
	}
}
