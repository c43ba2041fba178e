package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrOutputLocked means another run is using the output directory.
var ErrOutputLocked = errors.New("output directory is in use by another run")

// ownFiles are the entries a tournament directory holds before its
// manifest is written (a run stopped in between leaves them).
var ownFiles = map[string]bool{".lock": true, "logs": true, ManifestFile + ".tmp": true, OpeningsFile: true, OpeningsFile + ".tmp": true}

// StartFile reports whether name is one of the entries a tournament's
// output directory holds before its manifest is written (its lock, its
// logs), which a run stopped in between leaves behind.
func StartFile(name string) bool { return ownFiles[name] }

// LockDir takes the lock of a tournament's output directory, as Run does,
// so that no run starts on it until unlock is called. It fails with an
// error wrapping ErrOutputLocked while a run holds the lock.
func LockDir(dir string) (unlock func() error, err error) {
	f, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	return f.Close, nil
}

// lockDir takes an exclusive lock on dir so that two runs cannot append to
// one journal.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock output directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", dir, ErrOutputLocked)
		}
		return nil, fmt.Errorf("lock output directory: %w", err)
	}
	return f, nil
}
