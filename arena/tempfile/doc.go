// Package tempfile makes the anonymous temporary files in which the
// journal's readers keep what does not fit in memory: the index of a
// merge, the game list of a report or of the live page.
package tempfile
