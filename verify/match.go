package verify

// Crawler returns the registry token the User-Agent header ua names, read as Verify
// reads it; "" when it names none. Tools that group requests by crawler (package
// accesslog) call it, so that a request is named one way everywhere.
func (v *Verifier) Crawler(ua string) string {
	if len(ua) > v.lim.MaxUserAgent {
		ua = ua[:v.lim.MaxUserAgent]
	}
	c, ok := v.index.match(ua)
	if !ok {
		return ""
	}
	return c.name
}
