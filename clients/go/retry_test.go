package canasta_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	canasta "github.com/canasta-rules/canasta/clients/go"
	pb "github.com/canasta-rules/canasta/clients/go/gen/canasta/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"
)

// noHint, as busyAtFirst's hint, sends no RetryInfo (0 sends one of 0 s).
const noHint time.Duration = -1

// busyAtFirst serves a server that refuses its first refusals calls with TOO_MANY_CALLS
// (RESOURCE_EXHAUSTED, and a RetryInfo of hint unless it is noHint), then answers an empty
// message; it returns the server's address and the times the calls arrived.
func busyAtFirst(t *testing.T, refusals int, hint time.Duration) (string, func() []time.Time) {
	t.Helper()
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: "TOO_MANY_CALLS", Domain: "canasta.rules"}}
	if hint != noHint {
		details = append(details, &errdetails.RetryInfo{RetryDelay: durationpb.New(hint)})
	}
	st, err := status.New(codes.ResourceExhausted, "too many calls").WithDetails(details...)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var arrived []time.Time
	addr := serve(t, func(_ any, stream grpc.ServerStream) error {
		mu.Lock()
		arrived = append(arrived, time.Now())
		n := len(arrived)
		mu.Unlock()
		if n <= refusals {
			return st.Err()
		}
		return answer(stream, &pb.ListVariantsResponse{})
	})
	return addr, func() []time.Time {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Time(nil), arrived...)
	}
}

// serve serves every call with handler until the test ends; it returns the address.
func serve(t *testing.T, handler grpc.StreamHandler) string {
	t.Helper()
	server := grpc.NewServer(grpc.UnknownServiceHandler(handler))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = server.Serve(lis) }()
	t.Cleanup(server.Stop)
	return lis.Addr().String()
}

// answer reads a call's request (any message's fields are kept as unknown) and answers msg.
func answer(stream grpc.ServerStream, msg proto.Message) error {
	if err := stream.RecvMsg(&pb.ListVariantsRequest{}); err != nil {
		return err
	}
	return stream.SendMsg(msg)
}

// step is one call at a scripted server: its answer (nil: refused TOO_MANY_CALLS with a
// hint of 0 s) and the request id it echoes ("": none, as a proxy's answer).
type step struct {
	answer proto.Message
	rid    string
}

// scripted serves its nth call as steps[n] says and returns its address.
func scripted(t *testing.T, steps ...step) string {
	t.Helper()
	busy, err := status.New(codes.ResourceExhausted, "too many calls").WithDetails(
		&errdetails.ErrorInfo{Reason: "TOO_MANY_CALLS", Domain: "canasta.rules"},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(0)})
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	return serve(t, func(_ any, stream grpc.ServerStream) error {
		s := steps[calls.Add(1)-1]
		if s.rid != "" {
			stream.SetTrailer(metadata.Pairs("x-request-id", s.rid))
		}
		if s.answer == nil {
			return busy.Err()
		}
		return answer(stream, s.answer)
	})
}

// client is a client of addr over a connection already up, so that a test's timings
// start with the first call, not with the dial.
func client(t *testing.T, addr string, opts ...canasta.Option) *canasta.Client {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn.Connect()
	for state := conn.GetState(); state != connectivity.Ready; state = conn.GetState() {
		if !conn.WaitForStateChange(ctx, state) {
			t.Fatalf("no connection to %s: %v", addr, state)
		}
	}
	return canasta.New(conn, opts...)
}

func gapsAtLeast(t *testing.T, arrived []time.Time, least time.Duration) {
	t.Helper()
	for i := 1; i < len(arrived); i++ {
		if gap := arrived[i].Sub(arrived[i-1]); gap < least {
			t.Fatalf("call %d came %v after the refusal, before the %v asked", i+1, gap, least)
		}
	}
}

func TestRetriesSendACallRefusedForLoadAgain(t *testing.T) {
	// two refusals, two retries: answered on the third call, each after the hint's delay;
	// the client's WithToken copy keeps its retries
	addr, arrived := busyAtFirst(t, 2, 200*time.Millisecond)
	c := client(t, addr, canasta.WithRetries(2)).WithToken("a-seat-token")
	if _, err := c.ListVariants(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(arrived()); n != 3 {
		t.Fatalf("%d calls, want 3", n)
	}
	gapsAtLeast(t, arrived(), 190*time.Millisecond)

	// three refusals, two retries: the third refusal is returned
	addr, arrived = busyAtFirst(t, 3, 200*time.Millisecond)
	_, err := client(t, addr, canasta.WithRetries(2)).ListVariants(context.Background())
	if cerr := asError(t, err); cerr.Reason != "TOO_MANY_CALLS" || cerr.RetryAfter != 200*time.Millisecond {
		t.Fatalf("got %v", cerr)
	}
	if n := len(arrived()); n != 3 {
		t.Fatalf("%d calls, want 3", n)
	}
}

func TestWithoutRetriesOrAHintTheRefusalComesAtOnce(t *testing.T) {
	for _, c := range []struct {
		name    string
		hint    time.Duration
		options []canasta.Option
	}{
		{"default", 200 * time.Millisecond, nil},
		{"no hint", noHint, []canasta.Option{canasta.WithRetries(3)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr, arrived := busyAtFirst(t, 5, c.hint)
			_, err := client(t, addr, c.options...).ListVariants(context.Background())
			if cerr := asError(t, err); cerr.Reason != "TOO_MANY_CALLS" || cerr.RetryAfter != max(c.hint, 0) {
				t.Fatalf("got %v", cerr)
			}
			if n := len(arrived()); n != 1 {
				t.Fatalf("%d calls, want 1", n)
			}
		})
	}
}

func TestRetriesBelowZeroAreRefused(t *testing.T) {
	// as in every SDK (Python ValueError, TypeScript RangeError, Java
	// IllegalArgumentException); WithRetries(-1) was taken for 0 without a word
	const want = "canasta: retries must be 0 or more, not -1"
	if c, err := canasta.Dial("127.0.0.1:1", canasta.WithRetries(-1)); err == nil || err.Error() != want {
		t.Fatalf("Dial: %v, %v; want the error %q", c, err, want)
	}
	conn, err := grpc.NewClient("127.0.0.1:1", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	defer func() {
		if r := recover(); fmt.Sprint(r) != want {
			t.Fatalf("New panicked with %v, want %q", r, want)
		}
	}()
	canasta.New(conn, canasta.WithRetries(-1))
}

func TestAHintOfZeroSecondsIsSentAgainAtOnce(t *testing.T) {
	// a RetryInfo of 0 s is a hint (send it again now), not the absence of one: as the
	// Python, TypeScript and Java SDKs, the client retries it
	addr, arrived := busyAtFirst(t, 2, 0)
	if _, err := client(t, addr, canasta.WithRetries(2)).ListVariants(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(arrived()); n != 3 {
		t.Fatalf("%d calls, want 3", n)
	}
	addr, arrived = busyAtFirst(t, 5, 0)
	_, err := client(t, addr, canasta.WithRetries(1)).ListVariants(context.Background())
	hint, ok := asError(t, err).RetryHint()
	if hint != 0 || !ok || len(arrived()) != 2 {
		t.Fatalf("hint %v %v after %d calls, want 0 true after 2", hint, ok, len(arrived()))
	}
}

func TestANegativeHintIsNoHint(t *testing.T) {
	// a negative RetryInfo is malformed: as in every SDK it is no hint (the refusal comes
	// back at once), never one of 0 s, which would send the call again at once and hammer
	// a server under load
	for _, hint := range []time.Duration{-time.Second, -time.Millisecond} {
		addr, arrived := busyAtFirst(t, 5, hint)
		_, err := client(t, addr, canasta.WithRetries(3)).ListVariants(context.Background())
		cerr := asError(t, err)
		if d, ok := cerr.RetryHint(); cerr.RetryAfter != 0 || d != 0 || ok {
			t.Fatalf("hint %v: RetryAfter %v, RetryHint() = %v, %v; want 0, 0, false",
				hint, cerr.RetryAfter, d, ok)
		}
		if n := len(arrived()); n != 1 {
			t.Fatalf("hint %v: %d calls, want 1", hint, n)
		}
	}
	// an Error made by hand (a test double) with a negative RetryAfter is no hint either
	if d, ok := (&canasta.Error{RetryAfter: -time.Second}).RetryHint(); d != 0 || ok {
		t.Fatalf("RetryHint() = %v, %v; want 0, false", d, ok)
	}
}

func TestRetriesKeepToTheCallsDeadline(t *testing.T) {
	// hints of 400 ms under a 1 s timeout: sent at about 0, 0.4 and 0.8 s, never after it
	addr, arrived := busyAtFirst(t, 9, 400*time.Millisecond)
	c := client(t, addr, canasta.WithRetries(5), canasta.WithTimeout(time.Second))
	started := time.Now()
	_, err := c.ListVariants(context.Background())
	if cerr := asError(t, err); cerr.Reason != "TOO_MANY_CALLS" {
		t.Fatalf("got %v", cerr)
	}
	if took := time.Since(started); took >= time.Second {
		t.Fatalf("took %v, past the timeout", took)
	}
	if n := len(arrived()); n != 3 {
		t.Fatalf("%d calls, want 3", n)
	}
	gapsAtLeast(t, arrived(), 390*time.Millisecond)

	// a minute's hint is waited MaxRetryWait at most, which still passes a 5 s timeout
	addr, arrived = busyAtFirst(t, 9, time.Minute)
	c = client(t, addr, canasta.WithRetries(5), canasta.WithTimeout(5*time.Second))
	if _, err = c.ListVariants(context.Background()); asError(t, err).Reason != "TOO_MANY_CALLS" {
		t.Fatalf("got %v", err)
	}
	if n := len(arrived()); n != 1 {
		t.Fatalf("%d calls, want 1", n)
	}
}

func TestACancelledContextEndsTheWait(t *testing.T) {
	addr, arrived := busyAtFirst(t, 9, 5*time.Second)
	c := client(t, addr, canasta.WithRetries(3), canasta.WithTimeout(30*time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	started := time.Now()
	_, err := c.ListVariants(ctx)
	if cerr := asError(t, err); cerr.Reason != "TOO_MANY_CALLS" {
		t.Fatalf("got %v", cerr)
	}
	if took := time.Since(started); took >= 2*time.Second {
		t.Fatalf("took %v: the wait went on after the cancel", took)
	}
	if n := len(arrived()); n != 1 {
		t.Fatalf("%d calls, want 1", n)
	}
}

func TestReceiveRequestIDKeepsTheLastIDTheServerEchoed(t *testing.T) {
	// as the other SDKs' listeners hear each attempt that got an id: a retry answered
	// without one does not clear the refusal's (it was "")
	c := client(t, scripted(t, step{nil, "r-refused"}, step{&pb.ListVariantsResponse{}, ""}),
		canasta.WithRetries(1))
	got := "unset"
	if _, err := c.ListVariants(context.Background(), canasta.ReceiveRequestID(&got)); err != nil || got != "r-refused" {
		t.Fatalf("retried: %v, received %q; want r-refused", err, got)
	}
	// nor does a page of AllLegalMoves answered without one
	c = client(t, scripted(t,
		step{&pb.LegalMovesResponse{Moves: []*pb.Move{canasta.Move("draw")}, NextPageToken: "2"}, "p1"},
		step{&pb.LegalMovesResponse{Moves: []*pb.Move{canasta.Move("ask")}}, ""}))
	moves, err := c.AllLegalMoves(context.Background(), []byte("snapshot"), canasta.ReceiveRequestID(&got))
	if err != nil || len(moves) != 2 || got != "p1" {
		t.Fatalf("paged: %v, %d moves, received %q; want 2, p1", err, len(moves), got)
	}
}

func TestOnRequestIDHearsEachAttemptAndPage(t *testing.T) {
	// as Python's on_request_id, TypeScript's onRequestId and Java's listener; and
	// ReceiveRequestID keeps the last
	var heard []string
	listen := canasta.OnRequestID(func(id string) { heard = append(heard, id) })
	c := client(t, scripted(t, step{nil, "r1"}, step{nil, "r2"}, step{&pb.ListVariantsResponse{}, "r3"}),
		canasta.WithRetries(2))
	var got string
	none := []canasta.CallOption{canasta.ReceiveRequestID(nil), canasta.OnRequestID(nil)} // hear nothing
	if _, err := c.ListVariants(context.Background(), append(none, listen, canasta.ReceiveRequestID(&got))...); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(heard, []string{"r1", "r2", "r3"}) || got != "r3" {
		t.Fatalf("heard %q, received %q; want r1 r2 r3, r3", heard, got)
	}
	heard = nil
	c = client(t, scripted(t,
		step{&pb.LegalMovesResponse{NextPageToken: "2"}, "p1"}, step{nil, "p2-refused"},
		step{&pb.LegalMovesResponse{}, "p2"}), canasta.WithRetries(1))
	if _, err := c.AllLegalMoves(context.Background(), []byte("snapshot"), listen); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(heard, []string{"p1", "p2-refused", "p2"}) {
		t.Fatalf("heard %q over the pages; want p1 p2-refused p2", heard)
	}
}
