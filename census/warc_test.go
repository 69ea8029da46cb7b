package census

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"testing"
)

// FuzzParseRecord checks parseRecord, which reads a header's lines in the pass that
// finds its end, against parseRecordRef, which finds the end first and then reads
// the lines: the same record, size and error for any input.
func FuzzParseRecord(f *testing.F) {
	w := newWARC(false)
	w.capture("https://a.example/robots.txt", 200, []byte("User-agent: *\nDisallow: /\n"), "Content-Type", "text/plain")
	w.capture("https://b.example/robots.txt", 301, nil, "Location", "https://www.b.example/robots.txt")
	rec := w.bytes()
	f.Add(rec)
	f.Add(bytes.ReplaceAll(rec, []byte("\r\n"), []byte("\n")))
	f.Add(bytes.Replace(rec, []byte("\r\n\r\n"), []byte("\n\n\r\n\r\n"), 1))
	f.Add(bytes.Replace(rec, []byte("\r\n"), []byte("\n"), 3))
	f.Add(bytes.Replace(rec, []byte("Content-Length: "), []byte("content-LENGTH:  "), 1))
	f.Add(bytes.Replace(rec, []byte("\r\nWARC-Date"), []byte("\r\nnot a field\r\nWARC-Date"), 1))
	f.Add([]byte("WARC/1.0\r\n\r\n"))
	f.Add([]byte("WARC/1.0\n\nWARC-Type: x\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, want record
		n, err := parseRecord(&got, data)
		wantN, wantErr := parseRecordRef(&want, data)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || err == nil && (n != wantN || fmt.Sprint(got) != fmt.Sprint(want)) {
			t.Fatalf("parseRecord: %d %v %+v; reference: %d %v %+v", n, err, got, wantN, wantErr, want)
		}
		var short, wantShort *shortError
		if errors.As(err, &short) != errors.As(wantErr, &wantShort) || short != nil && short.need != wantShort.need {
			t.Fatalf("shortError %+v, reference %+v", short, wantShort)
		}
	})
}

// parseRecordRef is parseRecord as written first: the header's end searched for,
// then its lines read.
func parseRecordRef(rec *record, data []byte) (int, error) {
	if !bytes.HasPrefix(data, warcMagic) {
		return 0, errors.New("not a WARC record: no \"WARC/\" version line")
	}
	hdrEnd := bytes.Index(data, []byte("\r\n\r\n"))
	sep := 4
	if hdrEnd < 0 {
		if i := bytes.Index(data, []byte("\n\n")); i >= 0 { // bare LF, which lenient readers take
			hdrEnd, sep = i, 2
		}
	}
	if hdrEnd < 0 {
		if len(data) > maxHeaderBytes {
			return 0, fmt.Errorf("WARC header longer than %d bytes", maxHeaderBytes)
		}
		return 0, &shortError{what: "WARC header cut short"}
	}
	*rec = record{}
	length := -1
	lines := data[:hdrEnd]
	first := true
	for len(lines) > 0 {
		line := lines
		if i := bytes.IndexByte(lines, '\n'); i >= 0 {
			line, lines = lines[:i], lines[i+1:]
		} else {
			lines = nil
		}
		if first {
			first = false
			continue
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			if len(bytes.TrimSpace(line)) == 0 || line[0] == ' ' || line[0] == '\t' {
				continue // a continuation line, of no field read here
			}
			// Not a field: the header of a record cut short, then another record's.
			return 0, fmt.Errorf("WARC header line %q is not a field", truncate(line, 40))
		}
		value = bytes.TrimSpace(value)
		switch {
		case equalFoldRef(name, "WARC-Type"):
			if len(rec.typ) > 0 {
				return 0, errors.New("two WARC-Type fields: a record cut short, then another")
			}
			rec.typ = value
		case equalFoldRef(name, "WARC-Target-URI"):
			rec.uri = bytes.TrimSuffix(bytes.TrimPrefix(value, []byte("<")), []byte(">"))
		case equalFoldRef(name, "WARC-Date"):
			rec.date = value
		case equalFoldRef(name, "Content-Type"):
			rec.contentType = value
		case equalFoldRef(name, "WARC-Truncated"):
			rec.truncated = value
		case equalFoldRef(name, "Content-Length"):
			n, err := strconv.Atoi(string(value))
			if err != nil || n < 0 {
				return 0, fmt.Errorf("invalid Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return 0, errors.New("WARC header without Content-Length")
	}
	if length > MaxRecordBytes {
		return 0, fmt.Errorf("record block of %d bytes, more than %d", length, MaxRecordBytes)
	}
	start := hdrEnd + sep
	if len(data)-start < length {
		return 0, &shortError{need: start + length + 4, what: fmt.Sprintf("record cut short: Content-Length %d, %d bytes", length, len(data)-start)}
	}
	rec.block = data[start : start+length]
	n := start + length
	// The record ends with CRLF CRLF (LF LF in files written by lenient tools):
	// anything else means that the block is not as long as Content-Length says, a
	// record cut short and followed by the next.
	switch rest := data[n:]; {
	case bytes.HasPrefix(rest, []byte("\r\n\r\n")):
		n += 4
	case bytes.HasPrefix(rest, []byte("\n\n")):
		n += 2
	case len(rest) < 4 && (bytes.HasPrefix([]byte("\r\n\r\n"), rest) || bytes.HasPrefix([]byte("\n\n"), rest)):
		return 0, &shortError{need: n + 4, what: "record cut short before its end (CRLF CRLF)"}
	default:
		return 0, fmt.Errorf("no CRLF CRLF after the block of Content-Length %d: the record is cut short or its length is wrong", length)
	}
	return n, nil
}

// equalFoldRef reports whether b is s, ignoring ASCII case.
func equalFoldRef(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c, d := b[i], s[i]
		if c|0x20 != d|0x20 || (c|0x20 < 'a' || c|0x20 > 'z') && c != d {
			return false
		}
	}
	return true
}
