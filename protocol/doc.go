// Package protocol implements version 1.1 of the arena bot protocol: the
// line-based text protocol that the arena and a bot process speak over the
// bot's standard input and output. PROTOCOL.md in this directory is the
// specification; this package is its Go implementation, shared by the arena's
// process supervisor and by the Go bot SDK.
//
// Every message is one line. Parse decodes a line into one of the typed
// messages (Hello, IDName, Option, Go, Move, Info, ...), which a caller
// handles with a type switch; Format and each message's AppendText encode a
// message back into a line. A Reader reads lines from a stream, enforcing the
// protocol's line length limit (MaxLineLength) and UTF-8 encoding, and a
// Writer writes messages to a stream, one Write call per batch of lines.
//
// Errors that concern the protocol are *ProtocolError values wrapping one of
// the sentinel errors ErrLineTooLong, ErrNotUTF8, ErrUnknownCommand and
// ErrSyntax, so callers test them with errors.Is and recover the offending
// line with errors.As.
//
// The package knows nothing about processes or game rules: moves and
// position texts are opaque strings here. Decoding them is the business of
// the game packages.
package protocol
