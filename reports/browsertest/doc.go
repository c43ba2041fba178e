// Package browsertest starts headless Chromium for the arena's browser
// tests, through chromedp, in one way for every package: Start returns a
// tab, and the helpers evaluate script, click, wait and take screenshots
// in it.
//
// Without Chromium installed the tests that call Start are skipped with a
// message, unless ARENA_REQUIRE_CHROMIUM=1 is set (as CI sets it): then
// they fail. Chromium is started with a fresh profile and without the
// background services that reach for the network, so it starts quickly
// on a machine without network access.
//
// Screenshots are written only when a directory is given with the
// -screenshots flag or the ARENA_SCREENSHOTS environment variable.
package browsertest
