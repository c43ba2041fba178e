// Package journaltest makes journal records for the tests of the packages
// that read them: games played under the real rules, so that they replay.
package journaltest
