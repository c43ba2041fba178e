package reports

import (
	"math"
	"testing"
)

func TestFormatting(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{pct(0.6333), "63.3%"},
		{pct(math.NaN()), dash},
		{pctp(nil), dash},
		{los(0.7948), "79.5%"},
		{los(0.99996), "> 99.9%"},
		{los(0.00001), "< 0.1%"},
		{losp(nil), dash},
		{elo(67.7, true), "+68"},
		{elo(-78.8, true), "-79"},
		{elo(0.3, true), "0"},
		{elo(2380.4, false), "2380"},
		{elop(nil), dash},
		{plusMinus(nil), dash},
		{pvalue(0.0004), "< 0.001"},
		{pvalue(0.1338), "0.134"},
		{md("a|b*c_d<e>&[f]`g`#\\"), `a\|b\*c\_d&lt;e&gt;&amp;\[f\]` + "\\`g\\`" + `\#\\`},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
	if got := niceStep(370); got != 100 {
		t.Errorf("niceStep(370) = %v, want 100", got)
	}
	if got := niceStep(12); got != 2 {
		t.Errorf("niceStep(12) = %v, want 2", got)
	}
}
