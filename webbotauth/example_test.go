package webbotauth_test

import (
	"crypto/ed25519"
	"fmt"
	"net/http"

	"github.com/gorobots/robots/webbotauth"
)

// A crawler signs its requests and publishes its key; a site reads the signature
// and checks it with the key its directory gives.
func ExampleSigner() {
	pub, priv, _ := ed25519.GenerateKey(nil)
	// The crawler serves its key at https://bot.example/.well-known/http-message-signatures-directory.
	mux := http.NewServeMux()
	mux.Handle(webbotauth.WellKnownPath, webbotauth.DirectoryHandler(pub))

	signer := &webbotauth.Signer{Key: priv, Agent: "https://bot.example"}
	req, _ := http.NewRequest("GET", "https://site.example/page", nil)
	if err := signer.Sign(req); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(req.Header.Get("Signature-Agent"))

	sigs, _ := webbotauth.Parse(webbotauth.MessageOf(req))
	dir, _ := webbotauth.ParseDirectory(webbotauth.MarshalDirectory(pub))
	key := dir.Keys[sigs[0].KeyID]
	fmt.Println(sigs[0].Agent, sigs[0].Verify(key))
	// Output:
	// sig1="https://bot.example"
	// https://bot.example true
}
