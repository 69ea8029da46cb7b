package main

import (
	"fmt"

	"github.com/gorobots/robots"
)

// cutJSON says where crawlers stop reading a robots.txt longer than they read, and
// why. It is the "cut" of check's, explain's and compare's JSON output, null or
// absent when the whole file is read.
type cutJSON struct {
	Line      int `json:"line"`       // the last line read: the cut falls in it
	BytesRead int `json:"bytes_read"` // robots.DefaultMaxBytes, RFC 9309's minimum and Google's limit
	// FileBytes is the file's size; null when the command stopped reading the file at
	// InputLimit (maxInputFile) before its end, so that only a lower bound is known.
	FileBytes  *int   `json:"file_bytes"`
	InputLimit int    `json:"input_limit,omitempty"`
	Message    string `json:"message"`
}

// cutOf says where crawlers stop reading the file called name, of size bytes (as
// read), parsed as r, or nil when they read all of it. capped says that the command
// read only the file's first maxInputFile bytes.
func cutOf(name string, r *robots.Robots, size int, capped bool) *cutJSON {
	c := &cutJSON{Line: -1}
	for _, d := range r.Diagnostics() {
		if d.Code == robots.FileTooLarge {
			c.Line = d.Line
		}
	}
	if c.Line < 0 {
		return nil
	}
	if name == "-" {
		name = "<stdin>"
	}
	c.BytesRead = min(size, robots.DefaultMaxBytes)
	sizeText := fmt.Sprintf("is %d bytes", size)
	if capped {
		c.InputLimit = maxInputFile
		sizeText = fmt.Sprintf("is longer than %d bytes, all this command reads of a file", maxInputFile)
	} else {
		c.FileBytes = &size
	}
	c.Message = fmt.Sprintf("%s %s: crawlers read its first %d bytes (500 KiB, the limit of Google and RFC 9309) and stop in line %d; the groups and rules after that are not read",
		name, sizeText, c.BytesRead, c.Line)
	return c
}

// readPart is the part of body crawlers read: its first robots.DefaultMaxBytes.
func readPart(body []byte) []byte {
	return body[:min(len(body), robots.DefaultMaxBytes)]
}
