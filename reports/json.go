package reports

import (
	"encoding/json"
	"io"

	"github.com/arena-games/arena/arena/rating"
)

// Report is the document report.json holds.
type Report struct {
	Meta     Meta             `json:"meta"`
	Analysis *rating.Analysis `json:"analysis"`
}

// WriteJSON writes report.json: the metadata and the whole Analysis, with
// every number at full precision (undefined values are null).
func WriteJSON(w io.Writer, m Meta, a *rating.Analysis) error {
	if a == nil {
		return ErrNoAnalysis
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(Report{Meta: m, Analysis: a})
}
