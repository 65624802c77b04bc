package serve

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// HTTPServer is the http.Server for s's handler, with the limits on
// connections that slow or idle clients would otherwise hold for ever:
// the request's headers within 10 s, the whole request (a body of up
// to MaxBody) within ReadTimeout, an idle kept-alive connection closed
// after IdleTimeout. Serve it on s.Listener(ln), which bounds the open
// connections.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: min(10*time.Second, s.cfg.ReadTimeout),
		ReadTimeout:       s.cfg.ReadTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// Listener wraps ln so that at most MaxConns connections are open at
// once: one more is answered 503 with a message that says why, and
// closed, at once, so that clients that hold connections (slowly sending
// a request, or keeping one alive) cannot make the server stop taking
// new ones, nor run it out of file descriptors.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &connLimit{Listener: ln, max: s.cfg.MaxConns}
}

type connLimit struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open int
}

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		full := l.open >= l.max
		if !full {
			l.open++
		}
		l.mu.Unlock()
		if full {
			go refuseConn(c, l.max)
			continue
		}
		return &countedConn{Conn: c, l: l}, nil
	}
}

// refuseConn answers a connection beyond the limit and closes it: its
// request read first (within 5 s; its body dropped), since a client that
// gets an answer before it has sent its request takes it for none (Go's
// client says "unsolicited response"), and a socket closed with unread
// data sends a reset that can make the client lose the answer.
func refuseConn(c net.Conn, max int) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	req, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		return
	}
	io.Copy(io.Discard, io.LimitReader(req.Body, 1<<20))
	msg := fmt.Sprintf("the server has %d connections open, the most it takes; try again in a moment\n", max)
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 2\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(msg), msg)
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
}

// countedConn gives its place back when closed (once).
type countedConn struct {
	net.Conn
	l    *connLimit
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
