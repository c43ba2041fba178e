package tempfile

import "os"

// New creates a temporary file in dir, named by pattern as
// os.CreateTemp names it, or in the system's temporary directory when dir
// cannot hold one (then without pattern's leading character, which
// hides the file in dir), and removes its name: the space it takes is
// freed when it is closed, or when the process ends.
func New(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		var err2 error
		if f, err2 = os.CreateTemp("", pattern[1:]); err2 != nil {
			return nil, err
		}
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
