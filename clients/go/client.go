// Package canasta is the Go client of the canasta.v1 Canasta rules service (gRPC).
//
// The generated messages and stubs are in the gen/canasta/v1 package (canastav1);
// this package adds a Client with default deadlines, per-game credentials, typed errors
// (*Error, carrying the server's reason code) and a helper that plays a move from its
// text form.
//
// A game's credentials come with its deal (HostToken, SeatTokens). A client sends its
// token (WithToken, or Client.WithToken) as "authorization: Bearer <token>" with every
// call; a call's own Token option wins over it.
//
// With WithRetries(n) a call that the server refused for load, saying when to send it
// again (RetryAfter, as on TOO_MANY_CALLS), is sent again after that delay, up to n times.
// An n below 0 is refused: Dial returns an error, New panics.
package canasta

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	pb "github.com/canasta-rules/canasta/clients/go/gen/canasta/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// DefaultTimeout is the deadline of a call whose context has none.
const DefaultTimeout = 10 * time.Second

// MaxRetryWait is the longest wait on a server's retry hint before a call is sent again.
const MaxRetryWait = 10 * time.Second

// MaxTimeout is the longest timeout a call is given (a week, in every SDK): a longer one is
// taken as this. No call of the service takes near it, and the other SDKs' transports could
// not time much longer ones.
const MaxTimeout = 7 * 24 * time.Hour

// Client calls one server. It is safe for concurrent use.
type Client struct {
	rpc     pb.CanastaEngineClient
	conn    *grpc.ClientConn // nil when the caller owns the connection
	target  string           // the server's address, when known: for printing only
	timeout time.Duration
	token   string
	retries int
}

// Format prints a client without its credential, in every verb (%v, %+v, %#v, %s, ...):
// fmt's default printing of the struct would show its token (a bearer credential of a
// game) in logs and error messages. The token shows only as "redacted" or "none":
//
//	canasta.Client{target: "localhost:50051", timeout: 10s, retries: 0, token: redacted}
//
// It has a value receiver so that a Client printed by value is covered too.
func (c Client) Format(f fmt.State, verb rune) {
	target, token := "unknown", "none"
	if c.target != "" {
		target = fmt.Sprintf("%q", withoutUserinfo(c.target))
	}
	if c.token != "" {
		token = "redacted"
	}
	text := fmt.Sprintf("canasta.Client{target: %s, timeout: %v, retries: %d, token: %s}",
		target, c.timeout, c.retries, token)
	if verb == 'q' {
		text = fmt.Sprintf("%q", text)
	}
	_, _ = fmt.Fprint(f, text)
}

type options struct {
	timeout time.Duration
	token   string
	retries int
	dial    []grpc.DialOption
}

// Option configures a Client.
type Option func(*options)

// WithTimeout sets the deadline of calls whose context has none (default DefaultTimeout).
// A d of 0 or less is a deadline already past: such a call fails at once with
// DEADLINE_EXCEEDED, as in the other SDKs (it never means no deadline).
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithToken sets the credential sent with every call: a game's host token or one of its
// seat tokens. Without one a call is a spectator's.
func WithToken(token string) Option { return func(o *options) { o.token = token } }

// WithRetries sets how many times a call refused for load with a retry hint (RetryAfter)
// is sent again after that delay (at most MaxRetryWait). Every RPC is pure, so this is
// safe. The call's deadline covers its retries: a wait that would pass it is not made, and
// the context's end ends a wait. The default, 0, returns the refusal at once; so does a
// refusal without a hint. An n below 0 is refused, as in every SDK: Dial returns an error
// and New panics.
func WithRetries(n int) Option { return func(o *options) { o.retries = n } }

// WithDialOptions adds gRPC dial options (TLS credentials, interceptors, ...); without
// credentials Dial connects in plaintext.
func WithDialOptions(opts ...grpc.DialOption) Option {
	return func(o *options) { o.dial = append(o.dial, opts...) }
}

// collect is the options opts set, or the error of one no client can have.
func collect(opts []Option) (options, error) {
	o := options{timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if o.retries < 0 {
		return o, fmt.Errorf("canasta: retries must be 0 or more, not %d", o.retries)
	}
	return o, nil
}

// Dial makes a client of the server at target ("host:port"). Close it when done.
func Dial(target string, opts ...Option) (*Client, error) {
	if shown := withoutUserinfo(target); shown != target {
		return nil, fmt.Errorf("canasta: the target cannot carry a user or password (send the game's token with WithToken), not %q", shown)
	}
	o, err := collect(opts)
	if err != nil {
		return nil, err
	}
	dial := append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, o.dial...)
	conn, err := grpc.NewClient(target, dial...)
	if err != nil {
		return nil, err
	}
	return &Client{rpc: pb.NewCanastaEngineClient(conn), conn: conn, target: target, timeout: o.timeout,
		token: o.token, retries: o.retries}, nil
}

// New makes a client over a connection the caller owns (and closes). It panics on an
// option Dial would refuse (WithRetries below 0), as it has no error to return.
func New(cc grpc.ClientConnInterface, opts ...Option) *Client {
	o, err := collect(opts)
	if err != nil {
		panic(err)
	}
	c := &Client{rpc: pb.NewCanastaEngineClient(cc), timeout: o.timeout, token: o.token, retries: o.retries}
	if t, ok := cc.(interface{ Target() string }); ok {
		c.target = t.Target()
	}
	return c
}

// WithToken returns a client sending token with every call, sharing c's connection
// (close c, not the copy) and its other options.
func (c *Client) WithToken(token string) *Client {
	return &Client{rpc: c.rpc, target: c.target, timeout: c.timeout, token: token, retries: c.retries}
}

// CallOption configures one call.
type CallOption func(*callOptions)

type callOptions struct {
	token     *string
	requestID string
	heard     []func(id string)
}

// Token sends token with this call instead of the client's ("" sends none: a spectator's call).
func Token(token string) CallOption { return func(o *callOptions) { o.token = &token } }

// RequestID sends id as the call's x-request-id: the server echoes it, puts it in its log
// lines of the call and in an error's ErrorInfo metadata. Without one the server makes one up.
func RequestID(id string) CallOption { return func(o *callOptions) { o.requestID = id } }

// ReceiveRequestID stores in *dst the request id the server echoed for the call (its
// x-request-id trailer), when it answered or refused it; a failed call's is also
// (*Error).RequestID. *dst is "" when no answer came (a server that could not be reached).
// With retries, and over AllLegalMoves's pages, it is the last id the server echoed: an
// attempt or page that got no answer does not clear it. OnRequestID hears every one.
func ReceiveRequestID(dst *string) CallOption {
	return func(o *callOptions) {
		if dst != nil { // nil: nothing to store, as ever (not a panic)
			*dst = ""
			o.heard = append(o.heard, func(id string) { *dst = id })
		}
	}
}

// OnRequestID calls fn with the request id the server echoed for each attempt of the call
// that it answered or refused (once per attempt with retries, once per page of
// AllLegalMoves), as the other SDKs' listeners are called; never for one that got no answer.
func OnRequestID(fn func(id string)) CallOption {
	return func(o *callOptions) {
		if fn != nil {
			o.heard = append(o.heard, fn)
		}
	}
}

// Close closes the connection Dial made.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

func (c *Client) ctx(ctx context.Context, o callOptions) (context.Context, context.CancelFunc) {
	if *o.token != "" || o.requestID != "" {
		md, _ := metadata.FromOutgoingContext(ctx)
		md = md.Copy()
		if *o.token != "" {
			md.Set("authorization", "Bearer "+*o.token)
		}
		if o.requestID != "" {
			md.Set(requestIDKey, o.requestID)
		}
		ctx = metadata.NewOutgoingContext(ctx, md)
	}
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	// a timeout of 0 or less is a deadline already past, as in the other SDKs: never none
	return context.WithTimeout(ctx, min(c.timeout, MaxTimeout))
}

// userinfo is a "user:password@" before a target's authority (unix socket paths aside).
var userinfo = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*://)?[^/@]*@`)

// withoutUserinfo is target with any "user:password@" shown as "***@", as every SDK does:
// grpc-go quoted the whole target, password and all, in each call's Unavailable error.
func withoutUserinfo(target string) string {
	if strings.HasPrefix(target, "unix:") || strings.HasPrefix(target, "unix-abstract:") {
		return target
	}
	return userinfo.ReplaceAllString(target, "${1}***@")
}

// requestIDKey is the metadata of a call's request id, sent and echoed in the trailers.
const requestIDKey = "x-request-id"

// unsendable refuses a token that cannot be a header value as it is, before anything is
// sent, as every SDK does: a character outside visible ASCII (a space, as around a token
// read from a file, a control character such as a newline, or one outside ASCII). The
// token itself is not in the message.
func unsendable(token string) error {
	return refused(token, "the token", 0x21, "visible ASCII")
}

// refused is the error of a header value with a character below lowest or past '~', or nil.
// A request id may hold spaces (printable ASCII), as in every SDK: grpc-go refused one with
// a newline or a character outside ASCII too, but without saying which character.
func refused(value, what string, lowest rune, allowed string) error {
	for i, ch := range value {
		if ch < lowest || ch > 0x7e {
			msg := fmt.Sprintf("%s cannot be sent: its character %d (U+%04X) is not %s",
				what, len([]rune(value[:i]))+1, ch, allowed)
			st := status.New(codes.Internal, msg)
			return &Error{Code: codes.Internal, Message: msg, Metadata: map[string]string{}, status: st}
		}
	}
	return nil
}

// resolve is what opts set for a call (or for every page of AllLegalMoves).
func (c *Client) resolve(opts []CallOption) callOptions {
	o := callOptions{token: &c.token}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

func call[Req, Resp any](c *Client, ctx context.Context, req Req,
	fn func(context.Context, Req, ...grpc.CallOption) (Resp, error), opts []CallOption) (Resp, error) {
	return send(c, ctx, req, fn, c.resolve(opts))
}

// send makes a call with its options, and sends it again while waited says so.
func send[Req, Resp any](c *Client, ctx context.Context, req Req,
	fn func(context.Context, Req, ...grpc.CallOption) (Resp, error), o callOptions) (Resp, error) {
	err := unsendable(*o.token)
	if err == nil {
		err = refused(o.requestID, "the request id", 0x20, "printable ASCII")
	}
	if err != nil {
		var none Resp
		return none, err
	}
	ctx, cancel := c.ctx(ctx, o)
	defer cancel()
	for attempt := 0; ; attempt++ {
		var trailer metadata.MD
		resp, err := fn(ctx, req, grpc.Trailer(&trailer))
		err = fromError(err)
		rid := firstOf(trailer, requestIDKey)
		var e *Error
		if errors.As(err, &e) && e.requestID == "" {
			e.requestID = rid
		}
		if e != nil && rid == "" {
			rid = e.RequestID()
		}
		if rid != "" {
			for _, heard := range o.heard {
				heard(rid)
			}
		}
		if err == nil || !waited(ctx, err, attempt, c.retries) {
			return resp, err
		}
	}
}

func firstOf(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

// waited reports whether err is sent again: the server said when (a hint of 0 s: at once),
// one of retries is left and the wait ends before ctx's deadline (then it has waited).
func waited(ctx context.Context, err error, attempt, retries int) bool {
	var e *Error
	if !errors.As(err, &e) || attempt >= retries {
		return false
	}
	hint, ok := e.RetryHint()
	if !ok {
		return false
	}
	wait := min(hint, MaxRetryWait)
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= wait {
		return false
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// ListVariants lists the games this server plays, with their rule options.
func (c *Client) ListVariants(ctx context.Context, opts ...CallOption) (*pb.ListVariantsResponse, error) {
	return call(c, ctx, &pb.ListVariantsRequest{}, c.rpc.ListVariants, opts)
}

// Deal deals the first hand of a new game; the answer carries its HostToken and SeatTokens.
// req.Seed decides the shuffle and every later hand (a Deck too: it still deals the hands
// sent without one and May I?'s reshuffles). Left at 0, the client sends a RandomSeed
// instead, as the other SDKs do: on the wire 0 is a seed like any other, so every game dealt
// without one would be the same deal, which anybody can replay. req itself is not changed.
func (c *Client) Deal(ctx context.Context, req *pb.DealRequest, opts ...CallOption) (*pb.DealResponse, error) {
	return call(c, ctx, seeded(req), c.rpc.Deal, opts)
}

// RandomSeed is a random 64-bit deal seed from crypto/rand: what Deal sends for a request
// without one. Pick one with it to keep a game's seed on the table's side yourself.
func RandomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails since Go 1.24: it crashes rather than return an error
	return binary.BigEndian.Uint64(b[:])
}

// seeded is req, or a copy of it with a RandomSeed when its seed is 0.
func seeded(req *pb.DealRequest) *pb.DealRequest {
	if req == nil || req.GetSeed() != 0 {
		return req
	}
	copied := proto.CloneOf(req)
	copied.Seed = RandomSeed()
	return copied
}

// LegalMoves lists the legal moves of the seat whose move is due (host token), or of the
// token's seat when it may act: one page of at most req.PageSize moves (0: the server's
// maximum, 1,000); NextPageToken, passed as req.PageToken, continues the list.
func (c *Client) LegalMoves(ctx context.Context, req *pb.LegalMovesRequest, opts ...CallOption) (*pb.LegalMovesResponse, error) {
	return call(c, ctx, req, c.rpc.LegalMoves, opts)
}

// AllLegalMoves returns every legal move of LegalMoves, its pages followed to the end.
func (c *Client) AllLegalMoves(ctx context.Context, snapshot []byte, opts ...CallOption) ([]*pb.Move, error) {
	var moves []*pb.Move
	req := &pb.LegalMovesRequest{Snapshot: snapshot}
	o := c.resolve(opts) // once: ReceiveRequestID's id is not cleared by a later page
	for {
		page, err := send(c, ctx, req, c.rpc.LegalMoves, o)
		if err != nil {
			return nil, err
		}
		moves = append(moves, page.GetMoves()...)
		if page.GetNextPageToken() == "" {
			return moves, nil
		}
		req = &pb.LegalMovesRequest{Snapshot: snapshot, PageToken: page.GetNextPageToken()}
	}
}

// ApplyMove applies one move (req.Move: a listed move echoed back, or one with Text only).
// The host token moves for any seat, a seat token for its seat only.
func (c *Client) ApplyMove(ctx context.Context, req *pb.ApplyMoveRequest, opts ...CallOption) (*pb.ApplyMoveResponse, error) {
	return call(c, ctx, req, c.rpc.ApplyMove, opts)
}

// Play applies the move given in its text form, such as "discard 4D".
func (c *Client) Play(ctx context.Context, snapshot []byte, text string, opts ...CallOption) (*pb.ApplyMoveResponse, error) {
	return c.ApplyMove(ctx, &pb.ApplyMoveRequest{Snapshot: snapshot, Move: Move(text)}, opts...)
}

// ScoreHand scores the hand (provisional while it is played).
func (c *Client) ScoreHand(ctx context.Context, snapshot []byte, opts ...CallOption) (*pb.ScoreHandResponse, error) {
	return call(c, ctx, &pb.ScoreHandRequest{Snapshot: snapshot}, c.rpc.ScoreHand, opts)
}

// NextDeal deals the next hand once a hand is over (the host's answer carries the tokens).
func (c *Client) NextDeal(ctx context.Context, req *pb.NextDealRequest, opts ...CallOption) (*pb.NextDealResponse, error) {
	return call(c, ctx, req, c.rpc.NextDeal, opts)
}

// View returns the seat views of a snapshot: with Seat set only that seat's (-1: the
// spectator's); unset, every seat's for the host token, the token's seat's own, or the
// public one without a token. Use SeatPtr to set it.
func (c *Client) View(ctx context.Context, req *pb.GetViewRequest, opts ...CallOption) (*pb.GetViewResponse, error) {
	return call(c, ctx, req, c.rpc.GetView, opts)
}

// ImportPosition starts a game from a position in the text notation (docs/notation.md);
// the answer carries its HostToken and SeatTokens.
func (c *Client) ImportPosition(ctx context.Context, req *pb.ImportPositionRequest, opts ...CallOption) (*pb.ImportPositionResponse, error) {
	return call(c, ctx, req, c.rpc.ImportPosition, opts)
}

// ExportPosition returns the whole position of a snapshot as text. It reveals every hand, so
// only the host token may ask (and only as the server's export policy allows).
func (c *Client) ExportPosition(ctx context.Context, snapshot []byte, opts ...CallOption) (*pb.ExportPositionResponse, error) {
	return call(c, ctx, &pb.ExportPositionRequest{Snapshot: snapshot}, c.rpc.ExportPosition, opts)
}

// ExportRecord returns the game record (docs/records.md) of the moves the host kept
// (req.Record, checked against the snapshot; empty: a record starting at the snapshot): the
// whole record for the host token (req.ViewSeat picks a seat's, -1 the public one; use
// SeatPtr), a seat's own for its token, the public one for a spectator.
func (c *Client) ExportRecord(ctx context.Context, req *pb.ExportRecordRequest, opts ...CallOption) (*pb.ExportRecordResponse, error) {
	return call(c, ctx, req, c.rpc.ExportRecord, opts)
}

// SuggestMove returns a bot's legal move, not applied: for the seat whose move is due (host
// token; req.Seat picks another, use SeatPtr) or the token's own seat. The same snapshot,
// level ("greedy", "random" or "expert"), seed and budget (req.Budget, the expert's playouts)
// give the same move.
func (c *Client) SuggestMove(ctx context.Context, req *pb.SuggestMoveRequest, opts ...CallOption) (*pb.SuggestMoveResponse, error) {
	return call(c, ctx, req, c.rpc.SuggestMove, opts)
}

// Move is a move from its text form.
func Move(text string) *pb.Move { return &pb.Move{Text: text} }

// FirstProgressMove is the first listed move that is not "undo" or "ask" (nil if none):
// echoing it back ends a hand quickly.
func FirstProgressMove(moves []*pb.Move) *pb.Move {
	for _, m := range moves {
		if m.GetText() != "undo" && m.GetText() != "ask" {
			return m
		}
	}
	return nil
}

// SeatPtr returns a pointer to seat, for the optional seat fields of requests.
func SeatPtr(seat int32) *int32 { return &seat }

// SeqPtr returns a pointer to seq, for the optional expected_seq fields of requests.
func SeqPtr(seq uint64) *uint64 { return &seq }

// GameIDPtr returns a pointer to id, for the optional expected_game_id fields of requests
// (a header's GameId).
func GameIDPtr(id string) *string { return &id }
