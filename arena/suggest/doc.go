// Package suggest finds the word a user most likely meant when a command,
// flag or key is unknown: "arena rn" is "did you mean run?".
package suggest
