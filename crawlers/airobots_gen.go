package crawlers

// aiRobots is filled from ai.robots.txt's robots.json by go generate.
var aiRobots = []Crawler{}
