package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/musket-verify/musket/internal/playground"
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

// TestConcurrentConns sends 200 requests at once, each on a connection
// of its own, to a server served as musket serve serves it, with two
// workers, a queue of four and 64 connections: each is answered (a
// verdict or a time limit), or refused with 503 and a message (the queue
// is full, or the connections are), none is lost, and the server answers
// after.
func TestConcurrentConns(t *testing.T) {
	hs := connServer(t, Config{Workers: 2, Queue: 4, MaxConns: 64, Timeout: 300 * time.Millisecond})
	long := mustJSON(playground.Request{Name: "W4x8.litmus", Test: readFile(t, "../enum/testdata/W4x8.litmus"), Engine: "enum"})
	short := mustJSON(playground.Request{Name: "SB.litmus", Test: readFile(t, "../../examples/litmus/SB.litmus"), Engine: "enum"})
	var mu sync.Mutex
	counts := map[string]int{}
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := short
			if i%2 == 0 {
				body = long
			}
			// A connection per request, as 200 clients would open.
			c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			r, err := c.Post(hs.URL+"/api/run", "application/json", bytes.NewReader(body))
			key := ""
			if err != nil {
				key = "error: " + err.Error()
			} else {
				b, _ := io.ReadAll(r.Body)
				r.Body.Close()
				var resp answer
				switch {
				case json.Unmarshal(b, &resp) == nil:
					key = fmt.Sprintf("%d %s", r.StatusCode, resp.Status)
				case r.StatusCode == 503 && strings.Contains(string(b), "connections open"):
					key = "503 connections"
				default:
					key = fmt.Sprintf("%d %q", r.StatusCode, b)
				}
			}
			mu.Lock()
			counts[key]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	n := 0
	for k, c := range counts {
		switch k {
		case "200 done", "200 limit", "503 busy", "503 connections":
			n += c
		default:
			t.Errorf("%d answers %s", c, k)
		}
	}
	t.Logf("200 concurrent requests: %v", counts)
	if n != 200 || counts["200 done"]+counts["200 limit"] == 0 {
		t.Errorf("answers %v: want each answered or refused, some run", counts)
	}
	if _, resp := post(t, hs.URL, short); resp == nil || resp.Status != "done" {
		t.Errorf("after the burst: %+v", resp)
	}
}
