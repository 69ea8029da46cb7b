package crawlers

// stance is a curated crawler's robots.txt stance and the page that says so
// (data/stances.tsv, with the operators' words).
type stance struct {
	stance Stance
	url    string
}
