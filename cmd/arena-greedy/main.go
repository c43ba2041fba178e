// Command arena-greedy runs the arena's built-in "greedy" bot on standard input
// and output, for tools that start bots as ordinary commands; "arena bot
// greedy" does the same. Run it with -h for its flags.
package main

import "github.com/arena-games/arena/bots/builtin"

func main() { builtin.Main(builtin.NameGreedy) }
