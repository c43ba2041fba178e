package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"sync"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/live"
	"github.com/arena-games/arena/reports/viewer"
)

func init() {
	register(command{
		name:    "serve",
		summary: "serve the live page of a tournament directory, finished or running",
		run: func(ctx context.Context, args []string) error {
			return runServe(ctx, args, os.Stderr)
		},
	})
}

// defaultServeAddr is where arena serve listens without --addr.
const defaultServeAddr = "127.0.0.1:8080"

func runServe(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("serve", "[--addr HOST:PORT] DIR")
	addr := fs.String("addr", defaultServeAddr, "address to serve the page on (`HOST:PORT`; port 0 picks a free one); keep the host 127.0.0.1 unless others should see it")
	dir, err := parseInterspersed(fs, args, "tournament directory")
	if err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	l, err := viewer.Listen(*addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if _, err := journal.ReadManifest(dir); err != nil {
		fmt.Fprintf(stderr, "%s holds no tournament yet; the page will show it once one starts\n", dir)
	}
	srv := live.New(dir, live.Options{})
	fmt.Fprintf(stderr, "serving %s on %s (read-only; Ctrl-C to stop)\n", dir, viewer.URL(l))
	return serveLive(ctx, srv, l)
}

// serveLive runs srv on l until ctx is done and returns ctx's error.
func serveLive(ctx context.Context, srv *live.Server, l net.Listener) error {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // ends when ctx is done
		defer wg.Done()
		srv.Run(ctx)
	}()
	err := srv.Serve(ctx, l)
	wg.Wait()
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return ctx.Err()
}

// livePage is the live page of a tournament this process runs (arena run
// --serve).
type livePage struct {
	srv    *live.Server
	url    string
	cancel context.CancelFunc
	done   chan error
}

// startLive starts serving the live page of the tournament that will run
// in dir on addr. The page stops with stop (or ctx).
func startLive(ctx context.Context, dir, addr string, stderr io.Writer) (*livePage, error) {
	l, err := viewer.Listen(addr)
	if err != nil {
		return nil, fmt.Errorf("--serve: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &livePage{srv: live.New(dir, live.Options{InRun: true}), url: viewer.URL(l), cancel: cancel, done: make(chan error, 1)}
	go func() { p.done <- serveLive(ctx, p.srv, l) }() // ends when ctx is done
	fmt.Fprintf(stderr, "live page: %s\n", p.url)
	return p, nil
}

// stay keeps the page up after the tournament, until ctx is done or
// interrupt is closed (Ctrl-C).
func (p *livePage) stay(ctx context.Context, interrupt <-chan struct{}, stderr io.Writer) {
	fmt.Fprintf(stderr, "the live page stays up at %s; Ctrl-C to stop\n", p.url)
	select {
	case <-ctx.Done():
	case <-interrupt:
	}
}

// stop stops the page and waits for it.
func (p *livePage) stop() {
	p.cancel()
	<-p.done
}
