module github.com/gorobots/robots

go 1.26
