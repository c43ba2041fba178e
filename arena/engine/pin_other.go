//go:build !linux

package engine

import "errors"

// Pin lets the bot run only on cpus: not supported on this system.
func (e *Engine) Pin(cpus []int) error {
	if len(cpus) == 0 {
		return nil
	}
	return errors.New("CPU pinning needs Linux")
}
