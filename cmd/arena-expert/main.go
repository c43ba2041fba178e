// Command arena-expert runs the arena's built-in "expert" bot on standard
// input and output, for tools that start bots as ordinary commands; "arena
// bot expert" does the same. Run it with -h for its flags.
package main

import "github.com/arena-games/arena/bots/builtin"

func main() { builtin.Main(builtin.NameExpert) }
