package fetch_test

import (
	"testing"

	"github.com/gorobots/robots/fetch"
	"github.com/gorobots/robots/fetch/internal/fetchtest"
)

func TestMemoryStoreContract(t *testing.T) {
	fetchtest.TestStore(t, fetch.NewMemoryStore(0))
}

func TestMemoryStoreSharedErrors(t *testing.T) {
	fetchtest.TestSharedErrors(t, fetch.NewMemoryStore(0))
}
