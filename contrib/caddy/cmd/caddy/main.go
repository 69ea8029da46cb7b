// Command caddy is Caddy with its standard modules and the robots.txt gate
// (http.handlers.robots_gate). xcaddy builds the same:
//
//	xcaddy build --with github.com/gorobots/robots/contrib/caddy
package main

import (
	caddycmd "github.com/caddyserver/caddy/v2/cmd"
	_ "github.com/caddyserver/caddy/v2/modules/standard"

	_ "github.com/gorobots/robots/contrib/caddy"
)

func main() { caddycmd.Main() }
