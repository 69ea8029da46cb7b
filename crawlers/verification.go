package crawlers

// verification maps a crawler's Name to how it can be verified, and stances a
// curated crawler's Name to its robots.txt stance: both are generated into
// documented_gen.go from data/verification.tsv and data/stances.tsv, where each
// fact has its page and the date it was recorded.
