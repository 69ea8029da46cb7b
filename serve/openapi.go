package serve

import (
	_ "embed"
	"net/http"
	"strconv"
)

// openAPI is the OpenAPI 3.1 description of the server's routes, served at
// /openapi.json. TestOpenAPI validates real answers of every route against it.
//
//go:embed openapi.json
var openAPI []byte

func handleOpenAPI(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Content-Length"] = []string{strconv.Itoa(len(openAPI))}
	w.Write(openAPI)
}
