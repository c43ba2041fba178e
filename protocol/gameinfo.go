package protocol

// GameInfo tells a bot about the game a newgame starts (arena to bot, only
// to bots that requested FeatureGameInfo, right after newgame):
// "gameinfo opponent <name> [opening <text>]". Opponent is the other
// bot's name in the tournament, a word; Opening names the opening the game
// starts from, free text ("" when it has no name). A bot may use them
// for its log, a display or its contempt, never to play by other rules.
type GameInfo struct {
	Opponent string
	Opening  string
}

// Command returns "gameinfo".
func (GameInfo) Command() string { return cmdGameInfo }

// String returns the message's line.
func (m GameInfo) String() string { return str(m) }

// AppendText appends "gameinfo opponent <name> [opening <text>]".
func (m GameInfo) AppendText(b []byte) ([]byte, error) {
	if err := checkToken(cmdGameInfo, "opponent", m.Opponent); err != nil {
		return b, err
	}
	b = appendWords(append(b, cmdGameInfo...), "opponent", m.Opponent)
	if text := trim(m.Opening); text != "" {
		if err := checkText(cmdGameInfo, "opening", text, false); err != nil {
			return b, err
		}
		b = appendWords(b, "opening", text)
	}
	return b, nil
}

// gameInfo parses the fields of gameinfo, in any order, each a keyword
// and a word, but opening, whose text runs to the end of the line. A
// field it does not know (one a later version adds) is passed over with
// its word.
func (p *parser) gameInfo() (Message, error) {
	var m GameInfo
	for kw := p.word(); kw != ""; kw = p.word() {
		switch kw {
		case "opponent":
			if m.Opponent = p.word(); m.Opponent == "" {
				return nil, p.errorf("opponent without a name")
			}
		case "opening":
			m.Opening = p.rest()
		default:
			p.word()
		}
	}
	if m.Opponent == "" {
		return nil, p.errorf("missing opponent")
	}
	return m, nil
}
