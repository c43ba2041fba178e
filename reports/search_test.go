package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestSearchTable(t *testing.T) {
	a := testAnalysis()
	m := testMeta()
	m.Search = []BotSearch{
		{Bot: "deep <thinker>", Moves: 120, WithInfo: 118, AvgDepth: 11.26, NodesPerSecond: 1234567.4, AvgMoveMS: 98.44},
		{Bot: "quiet", Moves: 80, AvgMoveMS: 2.05},
	}
	var md, html, js bytes.Buffer
	if err := WriteMarkdown(&md, m, a); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, m, a); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, m, a); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Search\n\n| Player | Moves | With info | Avg depth | Nodes/s | Time/move |\n",
		"| deep &lt;thinker&gt; | 120 | 118 | 11.3 | 1234567 | 98.4 ms |\n",
		"| quiet | 80 | 0 | – | – | 2.0 ms |\n",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md.String())
		}
	}
	for _, want := range []string{"<h2>Search</h2>", "<td>deep &lt;thinker&gt;</td>", `<td class="num">1234567</td>`} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Meta.Search) != 2 || back.Meta.Search[0] != m.Search[0] {
		t.Errorf("report.json search = %+v, want %+v", back.Meta.Search, m.Search)
	}

	// Without search statistics there is no such section.
	md.Reset()
	html.Reset()
	if err := WriteMarkdown(&md, testMeta(), a); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, testMeta(), a); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "## Search") || strings.Contains(html.String(), "<h2>Search</h2>") {
		t.Error("a report without search statistics has a Search section")
	}
}
