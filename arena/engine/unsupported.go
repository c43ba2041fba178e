//go:build !unix

package engine

// The arena supervises bots through Unix process groups (one kill reaches
// a bot and everything it started). Windows has none; run the arena under
// WSL there. The name below makes the build error say so.
var _ = arena_needs_a_Unix_system__on_Windows_use_WSL
