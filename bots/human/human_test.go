package human

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/sdk"
	"github.com/arena-games/arena/protocol"
)

func TestResolve(t *testing.T) {
	for _, c := range []struct {
		pos      string
		from, to int
		want     string
		choices  []string
		reason   string
	}{
		{pos: "B:W6,15:B1", from: 1, to: 19, want: "1x10x19"},
		{pos: "B:W6,7,14,15:B2", from: 2, to: 18, choices: []string{"2x11x18", "2x9x18"}},
		{pos: "B:W14,15,22,23:BK10", from: 10, to: 10, choices: []string{"10x17x26x19x10", "10x19x26x17x10"}},
		{pos: "B:W6,15:B1", from: 1, to: 5, reason: "capture is compulsory"},
		{pos: "B:W30:B1", from: 1, to: 10, reason: "not a legal move (from 1: 1-5, 1-6)"},
		{pos: "B:W30:B1", from: 2, to: 6, reason: "no black piece on 2"},
	} {
		p, err := checkers.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		rules, _ := checkers.New("", nil)
		st := rules.NewState(p)
		text, choices, err := Resolve(st, c.from, c.to)
		slices.Sort(choices)
		switch {
		case c.reason != "":
			if err == nil || !strings.Contains(err.Error(), c.reason) || !errors.Is(err, game.ErrIllegalMove) {
				t.Errorf("%s %d to %d: %q, %v, %v; want the reason %q", c.pos, c.from, c.to, text, choices, err, c.reason)
			}
		case text != c.want || !slices.Equal(choices, c.choices) || err != nil:
			t.Errorf("%s %d to %d: %q, %v, %v; want %q, %v", c.pos, c.from, c.to, text, choices, err, c.want, c.choices)
		}
	}
}

// post sends a move as the page does (or as headers says).
func post(t *testing.T, url, body string, headers map[string]string) (int, moveReply) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/move", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r moveReply
	json.NewDecoder(resp.Body).Decode(&r)
	return resp.StatusCode, r
}

func pageState(t *testing.T, url string) State {
	t.Helper()
	resp, err := http.Get(url + "/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s State
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMoveFromThePage asks the person for a move, as the SDK does, and
// answers from the page: refused moves give the rules' reason and leave
// the request open; only the page's own JSON requests are taken.
func TestMoveFromThePage(t *testing.T) {
	p := newPlayer()
	srv := httptest.NewServer(p.handler())
	defer srv.Close()
	rules, err := cheversi.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	bot := p.bot(nil)
	if err := bot.NewGame(context.Background(), rules, game.White); err != nil {
		t.Fatal(err)
	}
	if s := pageState(t, srv.URL); s.Status != "opponent" || s.Color != "white" || s.Game != "cheversi" {
		t.Errorf("after newgame: %+v", s)
	}
	req := sdk.Request{Rules: rules, State: rules.Start(), Color: game.White, Clock: protocol.Clock{WTime: 90 * time.Second, BTime: time.Minute}}
	got := make(chan string, 1)
	go func() { // ends when the move is made
		m, err := p.move(context.Background(), req)
		if err != nil {
			m = "error: " + err.Error()
		}
		got <- m
	}()
	deadline := time.Now().Add(30 * time.Second)
	var s State
	for s = pageState(t, srv.URL); s.Status != "move"; s = pageState(t, srv.URL) {
		if time.Now().After(deadline) {
			t.Fatalf("no move asked for: %+v", s)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(s.Legal) != 64 || s.Unplaced["K"] != 1 || s.Unplaced["R"] != 2 || s.TimeLeftMS != 90000 {
		t.Errorf("move state: %d legal moves, unplaced %v, %d ms left", len(s.Legal), s.Unplaced, s.TimeLeftMS)
	}
	for _, c := range []struct {
		body    string
		headers map[string]string
		code    int
		reason  string
	}{
		{`{"move": "Q@e4"}`, nil, 200, "white's first move must place the king"},
		{`{"move": "K@z9"}`, nil, 200, "bad square"},
		{`{"from": 1, "to": 5}`, nil, 200, "no move given"},
		{`{"move": "K@e4"}`, map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType, ""},
		{`{"move": "K@e4"}`, map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden, ""},
		{`not json`, nil, http.StatusBadRequest, ""},
	} {
		code, r := post(t, srv.URL, c.body, c.headers)
		if code != c.code || r.OK || !strings.Contains(r.Reason, c.reason) {
			t.Errorf("POST %s %v: %d %+v; want %d and the reason %q", c.body, c.headers, code, r, c.code, c.reason)
		}
	}
	select {
	case m := <-got:
		t.Fatalf("a refused move was played: %s", m)
	default:
	}
	origin := map[string]string{"Origin": srv.URL}
	if code, r := post(t, srv.URL, `{"move": "K@e4"}`, origin); code != 200 || !r.OK {
		t.Fatalf("legal move: %d %+v", code, r)
	}
	if m := <-got; m != "K@e4" {
		t.Errorf("the bot played %q, want K@e4", m)
	}
	if _, r := post(t, srv.URL, `{"move": "K@d4"}`, origin); r.OK || r.Reason != "it is not your move" {
		t.Errorf("second move: %+v", r)
	}
	if s := pageState(t, srv.URL); s.Status != "opponent" || !slices.Equal(s.Moves, []string{"K@e4"}) || s.Ply == nil || s.Ply.Text != "8/8/8/8/4K3/8/8/8 b 1 e4" {
		t.Errorf("after the move: %+v", s)
	}
	bot.GameOver(context.Background(), game.WhiteWins, "score")
	if s := pageState(t, srv.URL); s.Status != "over" || s.Message != "You won." || s.Games != 1 {
		t.Errorf("after gameover: %+v", s)
	}

	// The arena ending the game while the person thinks ends the request.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // ends when ctx is canceled
		_, err := p.move(ctx, req)
		got <- "error: " + err.Error()
	}()
	for s = pageState(t, srv.URL); s.Status != "move"; s = pageState(t, srv.URL) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if m := <-got; m != "error: "+context.Canceled.Error() {
		t.Errorf("canceled request: %q", m)
	}
	if _, r := post(t, srv.URL, `{"move": "K@e4"}`, origin); r.OK {
		t.Error("a move was taken after the request ended")
	}
}

func TestPageIsServed(t *testing.T) {
	srv := httptest.NewServer(newPlayer().handler())
	defer srv.Close()
	for path, want := range map[string]string{"/": `<script src="/human.js">`, "/human.js": "EventSource", "/viewer.js": "ArenaViewer", "/human.css": ".palette"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(b.String(), want) {
			t.Errorf("GET %s: %d, no %q", path, resp.StatusCode, want)
		}
	}
	if resp, err := http.Get(srv.URL + "/../../etc/passwd"); err != nil || resp.StatusCode != 404 {
		t.Errorf("GET outside the routes: %v %v", resp, err)
	}
}
