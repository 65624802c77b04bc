// Package web holds the playground page's built assets (dist/, made by
// internal/playground/web/build.sh from src/ with npm and esbuild and
// committed, so that go build needs no npm).
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// Assets is the page: index.html and what it loads.
func Assets() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded
	}
	return sub
}
