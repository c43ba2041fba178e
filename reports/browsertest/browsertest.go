package browsertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// RequireEnv is the environment variable that turns a missing Chromium
// from a skip into a failure.
const RequireEnv = "ARENA_REQUIRE_CHROMIUM"

// ScreenshotsEnv names a directory for Screenshot, like the -screenshots
// flag.
const ScreenshotsEnv = "ARENA_SCREENSHOTS"

var screenshots = flag.String("screenshots", "", "write the browser tests' screenshots to `DIR` (also $"+ScreenshotsEnv+")")

// Timeout bounds each helper's wait; it is generous because the machine
// running the tests may be loaded.
const Timeout = 60 * time.Second

// Path returns the Chromium executable, or "" when there is none.
func Path() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Start starts a headless Chromium for t and returns the context of a tab
// in it, with a 1280 by 900 window. The browser is closed when t ends.
// Without Chromium, t is skipped (or failed, when RequireEnv is "1").
func Start(t testing.TB) context.Context {
	t.Helper()
	bin := Path()
	if bin == "" {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("chromium is not installed and %s=1", RequireEnv)
		}
		t.Skipf("chromium is not installed (apt-get install chromium; set %s=1 to require it)", RequireEnv)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// Start the browser now, so that a failure to start is reported as
	// such and not as the first action's. The first action's context
	// owns the browser, so it is ctx itself, without a timeout.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium %s: %v", bin, err)
	}
	return ctx
}

// Do runs actions with the Timeout, failing t on an error.
func Do(t testing.TB, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	if err := chromedp.Do(c, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// Open loads url in the tab and waits for it to load.
func Open(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	Do(t, ctx, "open "+url, chromedp.Navigate(url))
}

// Eval evaluates a script expression in the page and returns its value
// decoded into T, failing t on an error (a thrown exception included).
// Promises are awaited.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// WaitFor waits until a script expression is truthy, failing t after the
// Timeout with what it was waiting for. Errors while waiting (a page still
// loading, an element not there yet) are retried.
func WaitFor(t testing.TB, ctx context.Context, what, expr string) {
	t.Helper()
	WaitForExplained(t, ctx, what, expr, "")
}

// WaitForExplained is WaitFor, and when it fails t it also gives the value
// of the script expression explain (if not empty), which should describe
// the state of the page, for the failure to say what the page showed.
func WaitForExplained(t testing.TB, ctx context.Context, what, expr, explain string) {
	t.Helper()
	deadline := time.Now().Add(Timeout)
	var last error
	for {
		c, cancel := context.WithTimeout(ctx, Timeout)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool]("!!("+expr+")"))
		cancel()
		switch {
		case err == nil && ok:
			return
		case err != nil:
			last = err
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			shown := ""
			if explain != "" {
				c, cancel := context.WithTimeout(ctx, Timeout)
				v, err := chromedp.Run(c, chromedp.Evaluate[string](explain))
				cancel()
				shown = fmt.Sprintf("; the page shows %q (error: %v)", v, err)
			}
			t.Fatalf("waiting for %s (%s): not true after %v (last error: %v)%s", what, expr, Timeout, last, shown)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clickTries is how many times Click clicks before it gives up.
const clickTries = 5

// Click clicks with the mouse at the centre of the first element matching
// a CSS selector, as a person would (the element is scrolled into view
// first). It fails t when nothing matches. The click is a real mouse event
// at a point of the viewport, so the page can move between the moment the
// point is taken and the click (a busy browser lays out a re-rendered part
// late): when the element was not under the point as the click came,
// Click clicks again at its new place.
func Click(t testing.TB, ctx context.Context, selector string) {
	t.Helper()
	type point struct{ X, Y float64 }
	for try := 1; ; try++ {
		p := Eval[*point](t, ctx, fmt.Sprintf(`(function () {
			const e = document.querySelector(%q);
			if (!e) { return null; }
			window.__browsertestHit = null;
			window.addEventListener("click", function (ev) {
				const r = e.getBoundingClientRect();
				window.__browsertestHit = ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
			}, {capture: true, once: true});
			e.scrollIntoView({block: "center", inline: "center"});
			const r = e.getBoundingClientRect();
			return {X: r.left + r.width / 2, Y: r.top + r.height / 2};
		})()`, selector))
		if p == nil {
			t.Fatalf("click: nothing matches %s", selector)
		}
		Do(t, ctx, "click "+selector, chromedp.MouseClickXY(p.X, p.Y))
		if Eval[bool](t, ctx, `window.__browsertestHit === true`) {
			return
		}
		if try == clickTries {
			t.Fatalf("click: %d clicks at the centre of %s missed it", try, selector)
		}
		t.Logf("click: the click at (%.0f, %.0f) missed %s (the page moved); clicking again", p.X, p.Y, selector)
	}
}

// Key sends a key press (for example "ArrowRight" as kb.ArrowRight) to
// the page.
func Key(t testing.TB, ctx context.Context, key string) {
	t.Helper()
	Do(t, ctx, "key", chromedp.KeyEvent(key))
}

// Screenshot writes a full-page PNG of the tab at the given viewport
// width to DIR/name-WIDTH.png, when a screenshot directory is set, and
// returns its path ("" when none is set). The viewport is then set back
// to 1280 by 900.
func Screenshot(t testing.TB, ctx context.Context, name string, width int) string {
	t.Helper()
	dir := *screenshots
	if dir == "" {
		dir = os.Getenv(ScreenshotsEnv)
	}
	if dir == "" {
		return ""
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var opts []chromedp.EmulateViewportOption
	if width < 600 {
		opts = append(opts, chromedp.EmulateMobile)
	}
	Do(t, ctx, "set the viewport", chromedp.EmulateViewport(int64(width), 900, opts...))
	c, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	Do(t, ctx, "reset the viewport", chromedp.EmulateViewport(1280, 900))
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, width))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	return path
}

// Widths are the viewport widths screenshots are taken at: a desktop and
// a phone.
var Widths = []int{1280, 390}
