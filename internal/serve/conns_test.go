package serve

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// connServer is a server on a loopback port, served as musket serve
// serves it (HTTPServer on Listener).
func connServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	s := New(cfg)
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = s.HTTPServer()
	hs.Listener = s.Listener(hs.Listener)
	hs.Start()
	t.Cleanup(hs.Close)
	return hs
}

// TestSlowClients: clients that open connections and send their requests
// slowly hold at most MaxConns of them; one more is refused with 503 and
// a message, at once; the server closes the slow ones when their
// requests are not read within ReadTimeout, and answers again.
func TestSlowClients(t *testing.T) {
	const max = 4
	hs := connServer(t, Config{Workers: 1, MaxConns: max, ReadTimeout: 500 * time.Millisecond})
	addr := strings.TrimPrefix(hs.URL, "http://")
	var slow []net.Conn
	for range max {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// A body of 1000 bytes announced, one sent.
		if _, err := io.WriteString(c, "POST /api/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		slow = append(slow, c)
	}
	// The slow connections are accepted before this one (one listener,
	// accepted in order): it is one too many.
	resp, err := http.Get(hs.URL + "/api/info")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "connections open") {
		t.Fatalf("connection %d of %d: %d %q, want 503 and why", max+1, max, resp.StatusCode, body)
	}
	// Each slow connection is closed by the server (a guard deadline
	// fails the test if one is not).
	for i, c := range slow {
		c.SetReadDeadline(time.Now().Add(2 * time.Minute))
		_, err := io.ReadAll(bufio.NewReader(c))
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("slow connection %d still open after the guard deadline", i)
		}
	}
	resp, err = http.Get(hs.URL + "/api/info")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("after the slow clients: %d", resp.StatusCode)
	}
}
