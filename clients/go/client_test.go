package canasta_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	canasta "github.com/canasta-rules/canasta/clients/go"
	pb "github.com/canasta-rules/canasta/clients/go/gen/canasta/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const maxMoves = 2000

var illegalReasons = []string{"WRONG_PHASE", "NOT_LISTED", "CARDS_NOT_IN_HAND"}

func target(t *testing.T) string {
	t.Helper()
	v := os.Getenv("CANASTA_GRPC_TARGET")
	if v == "" {
		t.Fatal("set CANASTA_GRPC_TARGET=host:port of a running server (make sdk-test does)")
	}
	return v
}

func dial(t *testing.T) *canasta.Client {
	t.Helper()
	c, err := canasta.Dial(target(t), canasta.WithTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func asError(t *testing.T, err error) *canasta.Error {
	t.Helper()
	var cerr *canasta.Error
	if !errors.As(err, &cerr) {
		t.Fatalf("not a *canasta.Error: %v", err)
	}
	return cerr
}

func TestWholeClassicHandFourPlayers(t *testing.T) {
	c, ctx := dial(t), context.Background()
	deal, err := c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 4, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	if deal.GetHeader().GetSeq() != 0 || deal.GetHeader().GetVariant() != "classic" {
		t.Fatalf("header %v", deal.GetHeader())
	}
	if !strings.HasPrefix(deal.GetHostToken(), "ct1.host.") || len(deal.GetSeatTokens()) != 4 {
		t.Fatalf("tokens %q %q", deal.GetHostToken(), deal.GetSeatTokens())
	}
	for seat, token := range deal.GetSeatTokens() {
		if !strings.HasPrefix(token, fmt.Sprintf("ct1.s%d.", seat)) {
			t.Fatalf("seat %d token %q", seat, token)
		}
	}
	host, gameID := c.WithToken(deal.GetHostToken()), deal.GetHeader().GetGameId()
	snapshot, seq := deal.GetSnapshot(), uint64(0)
	var played *pb.ApplyMoveResponse
	for i := 0; i < maxMoves; i++ {
		legal, err := host.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: snapshot})
		if err != nil {
			t.Fatal(err)
		}
		chosen := canasta.FirstProgressMove(legal.GetMoves())
		played, err = host.ApplyMove(ctx, &pb.ApplyMoveRequest{
			Snapshot: snapshot, Move: chosen, ExpectedSeq: canasta.SeqPtr(seq), Seat: canasta.SeatPtr(legal.GetSeat()),
			ExpectedGameId: canasta.GameIDPtr(gameID),
		})
		if err != nil {
			t.Fatal(err)
		}
		if played.GetMove().GetText() != chosen.GetText() || played.GetHeader().GetSeq() != seq+1 ||
			played.GetHeader().GetGameId() != deal.GetHeader().GetGameId() {
			t.Fatalf("move %q answered %v", chosen.GetText(), played)
		}
		snapshot, seq = played.GetSnapshot(), seq+1
		if played.GetHandOver() {
			break
		}
	}
	if !played.GetHandOver() {
		t.Fatalf("the hand did not end in %d moves", maxMoves)
	}
	score, err := host.ScoreHand(ctx, snapshot)
	if err != nil {
		t.Fatal(err)
	}
	if !score.GetHandOver() || len(score.GetSides()) != 2 {
		t.Fatalf("score %v", score)
	}
	for _, s := range score.GetSides() {
		b := s.GetBreakdown()
		if s.GetTotal() != b.GetBase()+b.GetCanastaBonus()+b.GetGoingOut()+b.GetRedThreePoints()-b.GetInHand()-b.GetPenalties() {
			t.Fatalf("side %v: total is not the sum of its parts", s)
		}
	}
	if !played.GetGameOver() {
		next, err := host.NextDeal(ctx, &pb.NextDealRequest{
			Snapshot: snapshot, ExpectedSeq: canasta.SeqPtr(seq), ExpectedGameId: canasta.GameIDPtr(gameID),
		})
		if err != nil {
			t.Fatal(err)
		}
		if next.GetHeader().GetSeq() != seq+1 {
			t.Fatalf("next deal header %v", next.GetHeader())
		}
		// the same game, the same credentials (in the host's answer only)
		if next.GetHostToken() != deal.GetHostToken() || !slices.Equal(next.GetSeatTokens(), deal.GetSeatTokens()) {
			t.Fatalf("next deal tokens %q %q", next.GetHostToken(), next.GetSeatTokens())
		}
	}
}

func TestViewAndPlayText(t *testing.T) {
	c, ctx := dial(t), context.Background()
	deal, err := c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 4, Seed: 3, ViewSeat: canasta.SeatPtr(0)})
	if err != nil {
		t.Fatal(err)
	}
	if len(deal.GetViews()) != 1 || deal.GetViews()[0].GetSeat() != 0 {
		t.Fatalf("views %v", deal.GetViews())
	}
	host := canasta.Token(deal.GetHostToken())
	view, err := c.View(ctx, &pb.GetViewRequest{Snapshot: deal.GetSnapshot(), Seat: canasta.SeatPtr(0)}, host)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.GetViews()) != 1 || len(view.GetViews()[0].GetHand()) != 11 {
		t.Fatalf("view %v", view)
	}
	played, err := c.Play(ctx, deal.GetSnapshot(), "draw", host)
	if err != nil {
		t.Fatal(err)
	}
	if played.GetMove().GetText() != "draw" || played.GetMove().GetDraw() == nil {
		t.Fatalf("played %v", played.GetMove())
	}
}

func TestTamperedSnapshotIsSnapshotInvalid(t *testing.T) {
	c, ctx := dial(t), context.Background()
	deal, err := c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 4, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(deal.GetSnapshot())
	bad[len(bad)/2] ^= 1
	_, err = c.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: bad}, canasta.Token(deal.GetHostToken()))
	cerr := asError(t, err)
	if cerr.Code != codes.InvalidArgument || cerr.Reason != "SNAPSHOT_INVALID" || !canasta.IsReason(err, "SNAPSHOT_INVALID") {
		t.Fatalf("got %v", cerr)
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("status.Code = %v", status.Code(err))
	}
}

func TestIllegalMoveIsARuleViolation(t *testing.T) {
	c, ctx := dial(t), context.Background()
	deal, err := c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 4, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Play(ctx, deal.GetSnapshot(), "discard 4D", canasta.Token(deal.GetHostToken()))
	cerr := asError(t, err)
	if cerr.Code != codes.FailedPrecondition || !cerr.IsRuleViolation() || !slices.Contains(illegalReasons, cerr.Reason) {
		t.Fatalf("got %v", cerr)
	}
}

func TestStaleSnapshotAndBadRequest(t *testing.T) {
	c, ctx := dial(t), context.Background()
	deal, err := c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 4, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ApplyMove(ctx, &pb.ApplyMoveRequest{Snapshot: deal.GetSnapshot(), Move: canasta.Move("draw"), ExpectedSeq: canasta.SeqPtr(7)},
		canasta.Token(deal.GetHostToken()))
	if cerr := asError(t, err); cerr.Code != codes.Aborted || cerr.Reason != "SNAPSHOT_STALE" {
		t.Fatalf("got %v", cerr)
	}
	_, err = c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 9})
	cerr := asError(t, err)
	if cerr.Reason != "BAD_PLAYER_COUNT" || len(cerr.FieldViolations) == 0 || cerr.FieldViolations[0].Field != "players" {
		t.Fatalf("got %v %v", cerr, cerr.FieldViolations)
	}
}

func TestDeadline(t *testing.T) {
	// a server that refuses the first call (the connection is then up) and holds every
	// later one unanswered, noting the deadline it carries: the client's timeout is what
	// the server sees, and it ends the call
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan time.Duration, 1)
	var calls atomic.Int32
	silent := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		if calls.Add(1) == 1 {
			return status.Error(codes.Unimplemented, "the first call")
		}
		left := time.Duration(-1)
		if deadline, ok := stream.Context().Deadline(); ok {
			left = time.Until(deadline)
		}
		seen <- left
		<-stream.Context().Done()
		return stream.Context().Err()
	}))
	go func() { _ = silent.Serve(lis) }()
	defer silent.Stop()
	c, err := canasta.Dial(lis.Addr().String(), canasta.WithTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// the first call brings the connection up, under a deadline of its own
	warm, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err = c.ListVariants(warm); asError(t, err).Code != codes.Unimplemented {
		t.Fatalf("the first call: %v", err)
	}
	_, err = c.ListVariants(context.Background())
	if cerr := asError(t, err); cerr.Code != codes.DeadlineExceeded || cerr.Reason != "DEADLINE_EXCEEDED" {
		t.Fatalf("got %v", cerr)
	}
	// the deadline left when the call arrived: the 300 ms asked (sent rounded up to its
	// unit and dated on arrival), never the default
	select {
	case left := <-seen:
		if left <= 0 || left > 310*time.Millisecond {
			t.Fatalf("the server saw %v left, not about 300ms", left)
		}
	case <-time.After(30 * time.Second): // set when the call arrived, 300 ms before its end
		t.Fatal("the call never reached the server")
	}
}

func TestUnreachableServerIsUnavailable(t *testing.T) {
	c, err := canasta.Dial("127.0.0.1:1", canasta.WithTimeout(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.ListVariants(context.Background())
	if cerr := asError(t, err); cerr.Code != codes.Unavailable {
		t.Fatalf("got %v", cerr)
	}
}

func TestVersionIsClientsVersion(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	if canasta.Version != strings.TrimSpace(string(want)) {
		t.Fatalf("Version %q, clients/VERSION %q", canasta.Version, want)
	}
}

// ---- credentials (the server runs with CANASTA_ACCESS=tokens) ---------------------------

func deal(t *testing.T, c *canasta.Client) *pb.DealResponse {
	t.Helper()
	d, err := c.Deal(context.Background(), &pb.DealRequest{Variant: "classic", Players: 4, Seed: 21})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// wantRefusal fails unless err is an *Error with exactly this code and reason.
func wantRefusal(t *testing.T, err error, code codes.Code, reason string) {
	t.Helper()
	if cerr := asError(t, err); cerr.Code != code || cerr.Reason != reason {
		t.Fatalf("got %v, want %v %s", cerr, code, reason)
	}
}

func seats(views []*pb.SeatView) []int32 {
	var out []int32
	for _, v := range views {
		out = append(out, v.GetSeat())
	}
	return out
}

func TestSeatTokenSeesItsOwnHandOnly(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	every, err := c.WithToken(d.GetHostToken()).View(ctx, &pb.GetViewRequest{Snapshot: d.GetSnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seats(every.GetViews()), []int32{0, 1, 2, 3}) {
		t.Fatalf("host views %v", seats(every.GetViews()))
	}
	for _, v := range every.GetViews() {
		if len(v.GetHand()) != 11 {
			t.Fatalf("host view of seat %d: hand %v", v.GetSeat(), v.GetHand())
		}
	}
	seat1 := c.WithToken(d.GetSeatTokens()[1])
	mine, err := seat1.View(ctx, &pb.GetViewRequest{Snapshot: d.GetSnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seats(mine.GetViews()), []int32{1}) || !slices.Equal(mine.GetViews()[0].GetHand(), every.GetViews()[1].GetHand()) ||
		!slices.Equal(mine.GetViews()[0].GetHandSizes(), []int32{11, 11, 11, 11}) {
		t.Fatalf("seat 1 views %v", mine.GetViews())
	}
	public, err := seat1.View(ctx, &pb.GetViewRequest{Snapshot: d.GetSnapshot(), Seat: canasta.SeatPtr(-1)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seats(public.GetViews()), []int32{-1}) || len(public.GetViews()[0].GetHand()) != 0 {
		t.Fatalf("public views %v", public.GetViews())
	}
	_, err = seat1.View(ctx, &pb.GetViewRequest{Snapshot: d.GetSnapshot(), Seat: canasta.SeatPtr(0)})
	wantRefusal(t, err, codes.PermissionDenied, "SEAT_NOT_ALLOWED")
}

func TestSeatTokenMovesForItsSeatOnly(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	legal, err := c.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: d.GetSnapshot()}, canasta.Token(d.GetHostToken()))
	if err != nil {
		t.Fatal(err)
	}
	turn := legal.GetSeat()
	other := c.WithToken(d.GetSeatTokens()[(turn+1)%4])
	_, err = other.ApplyMove(ctx, &pb.ApplyMoveRequest{Snapshot: d.GetSnapshot(), Move: canasta.Move("draw"), Seat: canasta.SeatPtr(turn)})
	wantRefusal(t, err, codes.PermissionDenied, "SEAT_NOT_ALLOWED")
	waiting, err := other.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: d.GetSnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	if waiting.GetSeat() != turn || len(waiting.GetMoves()) != 0 {
		t.Fatalf("a waiting seat's legal moves %v", waiting)
	}
	played, err := c.WithToken(d.GetSeatTokens()[turn]).Play(ctx, d.GetSnapshot(), "draw")
	if err != nil {
		t.Fatal(err)
	}
	if played.GetSeat() != turn || !slices.Equal(seats(played.GetViews()), []int32{turn}) {
		t.Fatalf("played %v, views %v", played.GetSeat(), seats(played.GetViews()))
	}
}

func TestCallWithoutTokenIsRefused(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	_, err := c.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: d.GetSnapshot()})
	wantRefusal(t, err, codes.Unauthenticated, "CREDENTIAL_REQUIRED")
	_, err = c.Play(ctx, d.GetSnapshot(), "draw")
	wantRefusal(t, err, codes.Unauthenticated, "CREDENTIAL_REQUIRED")
	// Token("") sends none, whatever the client's
	_, err = c.WithToken(d.GetHostToken()).LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: d.GetSnapshot()}, canasta.Token(""))
	wantRefusal(t, err, codes.Unauthenticated, "CREDENTIAL_REQUIRED")
	public, err := c.View(ctx, &pb.GetViewRequest{Snapshot: d.GetSnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seats(public.GetViews()), []int32{-1}) || len(public.GetViews()[0].GetHand()) != 0 {
		t.Fatalf("a spectator's views %v", public.GetViews())
	}
}

func TestATokenThatCannotBeAHeaderIsRefusedBeforeSending(t *testing.T) {
	// as in every SDK: spaces around a token, a newline, a control character or one outside
	// ASCII are refused before anything is sent, INTERNAL, the message naming no token
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	host := d.GetHostToken()
	for _, token := range []string{host + "\n", host + "\r\nx-a: b", " " + host, host + " ",
		host[:5] + "\t" + host[5:], host + "\u00f6"} {
		req := &pb.GetViewRequest{Snapshot: d.GetSnapshot()}
		_, viaCall := c.View(ctx, req, canasta.Token(token))
		_, viaClient := c.WithToken(token).View(ctx, req)
		_, unary := c.WithToken(token).ListVariants(ctx)
		for _, err := range []error{viaCall, viaClient, unary} {
			cerr := asError(t, err)
			if cerr.Code != codes.Internal || cerr.Reason != "" ||
				!strings.Contains(cerr.Message, "the token cannot be sent") || strings.Contains(cerr.Error(), host) {
				t.Fatalf("token %q: got %v", token, cerr)
			}
		}
	}
}

func TestRequestIDIsSentAndReadBack(t *testing.T) {
	c, ctx := dial(t), context.Background()
	var got string
	if _, err := c.ListVariants(ctx, canasta.RequestID("go-req-1"), canasta.ReceiveRequestID(&got)); err != nil {
		t.Fatal(err)
	}
	if got != "go-req-1" {
		t.Fatalf("an answer's request id %q, want the one sent", got)
	}
	if _, err := c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 4, Seed: 3}, canasta.ReceiveRequestID(&got)); err != nil || got == "" {
		t.Fatalf("the server's own request id %q (%v)", got, err)
	}
	_, err := c.View(ctx, &pb.GetViewRequest{Snapshot: []byte("not a snapshot")},
		canasta.RequestID("go-req-2"), canasta.ReceiveRequestID(&got))
	if cerr := asError(t, err); cerr.RequestID() != "go-req-2" || got != "go-req-2" {
		t.Fatalf("a refusal's request id %q, received %q", cerr.RequestID(), got)
	}
	made := ""
	_, err = c.View(ctx, &pb.GetViewRequest{Snapshot: []byte("not a snapshot")}, canasta.ReceiveRequestID(&made))
	if cerr := asError(t, err); made == "" || cerr.RequestID() != made {
		t.Fatalf("a refusal's request id %q, received %q", cerr.RequestID(), made)
	}
}

func TestARequestIDThatCannotBeSentIsRefusedBeforeSending(t *testing.T) {
	// as in every SDK: INTERNAL naming the character (grpc-go's own refusal named none)
	c, ctx := dial(t), context.Background()
	for id, at := range map[string]string{"r\n1": "2 (U+000A)", "r\r\nx-a: b": "2 (U+000D)", "r\u00e9": "2 (U+00E9)"} {
		got := "unset"
		_, err := c.ListVariants(ctx, canasta.RequestID(id), canasta.ReceiveRequestID(&got))
		cerr := asError(t, err)
		if cerr.Code != codes.Internal || cerr.Reason != "" || got != "" ||
			!strings.Contains(cerr.Message, "the request id cannot be sent: its character "+at+" is not printable ASCII") {
			t.Fatalf("request id %q: got %v, received %q", id, cerr, got)
		}
	}
	var got string
	if _, err := c.ListVariants(ctx, canasta.RequestID("table 7/42"), canasta.ReceiveRequestID(&got)); err != nil || got != "table 7/42" {
		t.Fatalf("a request id with a space: %v, received %q", err, got)
	}
}

func TestTokenOfAnotherGameIsInvalid(t *testing.T) {
	c, ctx := dial(t), context.Background()
	mine, theirs := deal(t, c), deal(t, c)
	for _, token := range []string{theirs.GetHostToken(), theirs.GetSeatTokens()[0]} {
		_, err := c.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: mine.GetSnapshot()}, canasta.Token(token))
		wantRefusal(t, err, codes.Unauthenticated, "CREDENTIAL_INVALID")
		_, err = c.Play(ctx, mine.GetSnapshot(), "draw", canasta.Token(token))
		wantRefusal(t, err, codes.Unauthenticated, "CREDENTIAL_INVALID")
		_, err = c.View(ctx, &pb.GetViewRequest{Snapshot: mine.GetSnapshot()}, canasta.Token(token))
		wantRefusal(t, err, codes.Unauthenticated, "CREDENTIAL_INVALID")
	}
}

func TestCallTokenWinsOverTheClients(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	seat2, err := canasta.Dial(target(t), canasta.WithToken(d.GetSeatTokens()[2]))
	if err != nil {
		t.Fatal(err)
	}
	defer seat2.Close()
	req := &pb.GetViewRequest{Snapshot: d.GetSnapshot()}
	own, err := seat2.View(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	every, err := seat2.View(ctx, req, canasta.Token(d.GetHostToken()))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seats(own.GetViews()), []int32{2}) || !slices.Equal(seats(every.GetViews()), []int32{0, 1, 2, 3}) {
		t.Fatalf("views %v then %v", seats(own.GetViews()), seats(every.GetViews()))
	}
}

func TestExpectedGameID(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d, other := deal(t, c), deal(t, c)
	host := c.WithToken(d.GetHostToken())
	req := &pb.ApplyMoveRequest{Snapshot: d.GetSnapshot(), Move: canasta.Move("draw"),
		ExpectedGameId: canasta.GameIDPtr(other.GetHeader().GetGameId())}
	_, err := host.ApplyMove(ctx, req)
	wantRefusal(t, err, codes.Aborted, "SNAPSHOT_WRONG_GAME")
	req.ExpectedGameId = canasta.GameIDPtr(d.GetHeader().GetGameId())
	if _, err := host.ApplyMove(ctx, req); err != nil {
		t.Fatal(err)
	}
}

func TestSuggestMoveWithASeatToken(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	legal, err := c.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: d.GetSnapshot()}, canasta.Token(d.GetHostToken()))
	if err != nil {
		t.Fatal(err)
	}
	turn := legal.GetSeat()
	mover := c.WithToken(d.GetSeatTokens()[turn])
	req := &pb.SuggestMoveRequest{Snapshot: d.GetSnapshot(), Level: "greedy", Seed: 1}
	hint, err := mover.SuggestMove(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := mover.SuggestMove(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if hint.GetSeat() != turn || hint.GetLevel() != "greedy" || again.GetMove().GetText() != hint.GetMove().GetText() {
		t.Fatalf("suggested %v then %v for seat %d", hint, again, turn)
	}
	played, err := mover.ApplyMove(ctx, &pb.ApplyMoveRequest{Snapshot: d.GetSnapshot(), Move: hint.GetMove()})
	if err != nil {
		t.Fatal(err)
	}
	if played.GetMove().GetText() != hint.GetMove().GetText() {
		t.Fatalf("played %q, suggested %q", played.GetMove().GetText(), hint.GetMove().GetText())
	}
	other := c.WithToken(d.GetSeatTokens()[(turn+1)%4])
	_, err = other.SuggestMove(ctx, &pb.SuggestMoveRequest{Snapshot: d.GetSnapshot(), Seat: canasta.SeatPtr(turn)})
	wantRefusal(t, err, codes.PermissionDenied, "SEAT_NOT_ALLOWED")
}

func TestImportPositionThenExportItWithTheHostToken(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	exported, err := c.ExportPosition(ctx, d.GetSnapshot(), canasta.Token(d.GetHostToken()))
	if err != nil {
		t.Fatal(err)
	}
	imported, err := c.ImportPosition(ctx, &pb.ImportPositionRequest{Position: exported.GetPosition()})
	if err != nil {
		t.Fatal(err)
	}
	if !imported.GetHeader().GetImported() || imported.GetHeader().GetSeq() != 0 || len(imported.GetSeatTokens()) != 4 {
		t.Fatalf("imported %v with %d seat tokens", imported.GetHeader(), len(imported.GetSeatTokens()))
	}
	again, err := c.WithToken(imported.GetHostToken()).ExportPosition(ctx, imported.GetSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if again.GetPosition() != exported.GetPosition() {
		t.Fatalf("exported %q after importing %q", again.GetPosition(), exported.GetPosition())
	}
}

func TestExportRecordForTheHostAndASeat(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	host := c.WithToken(d.GetHostToken())
	start, err := host.ExportRecord(ctx, &pb.ExportRecordRequest{Snapshot: d.GetSnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	played, err := host.Play(ctx, d.GetSnapshot(), "draw")
	if err != nil {
		t.Fatal(err)
	}
	record := start.GetRecord() + fmt.Sprintf("%d %s\n", played.GetSeat(), played.GetMove().GetText())
	full, err := host.ExportRecord(ctx, &pb.ExportRecordRequest{Snapshot: played.GetSnapshot(), Record: record})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(full.GetRecord(), "canasta-record 1\n") || !strings.Contains(full.GetRecord(), "seed: 21") {
		t.Fatalf("the host's record:\n%s", full.GetRecord())
	}
	own, err := c.ExportRecord(ctx, &pb.ExportRecordRequest{Snapshot: played.GetSnapshot(), Record: record},
		canasta.Token(d.GetSeatTokens()[1]))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(own.GetRecord(), "view: 1") || strings.Contains(own.GetRecord(), "seed:") {
		t.Fatalf("seat 1's record:\n%s", own.GetRecord())
	}
	asked, err := host.ExportRecord(ctx, &pb.ExportRecordRequest{Snapshot: played.GetSnapshot(), Record: record,
		ViewSeat: canasta.SeatPtr(1)})
	if err != nil {
		t.Fatal(err)
	}
	if asked.GetRecord() != own.GetRecord() {
		t.Fatalf("the host's copy of seat 1's record differs:\n%s", asked.GetRecord())
	}
}

// dealtSeed is the seed a deal's game was dealt with, read from the host's record.
func dealtSeed(t *testing.T, c *canasta.Client, d *pb.DealResponse) uint64 {
	t.Helper()
	r, err := c.ExportRecord(context.Background(), &pb.ExportRecordRequest{Snapshot: d.GetSnapshot()},
		canasta.Token(d.GetHostToken()))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(r.GetRecord(), "\n") {
		if text, ok := strings.CutPrefix(line, "seed: "); ok {
			seed, err := strconv.ParseUint(text, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return seed
		}
	}
	t.Fatalf("no seed in the record:\n%s", r.GetRecord())
	return 0
}

// A request without a seed is dealt with a random 64-bit one: on the wire 0 is a seed like
// any other, and every such game would be the same deal, which anybody can replay.
func TestADealWithoutASeedGetsARandomOne(t *testing.T) {
	c, ctx := dial(t), context.Background()
	req := &pb.DealRequest{Variant: "classic", Players: 2}
	seen := map[uint64]bool{}
	var largest uint64
	for range 4 {
		d, err := c.Deal(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		seed := dealtSeed(t, c, d)
		seen[seed], largest = true, max(largest, seed)
	}
	if len(seen) != 4 || seen[0] || largest < 1<<40 {
		t.Fatalf("dealt seeds %v", seen)
	}
	if req.GetSeed() != 0 {
		t.Fatalf("Deal changed the caller's request: seed %d", req.GetSeed())
	}
	d, err := c.Deal(ctx, &pb.DealRequest{Variant: "classic", Players: 2, Seed: math.MaxUint64})
	if err != nil {
		t.Fatal(err)
	}
	if seed := dealtSeed(t, c, d); seed != math.MaxUint64 {
		t.Fatalf("dealt seed %d, sent %d", seed, uint64(math.MaxUint64))
	}
	if a, b := canasta.RandomSeed(), canasta.RandomSeed(); a == b {
		t.Fatalf("RandomSeed gave %d twice", a)
	}
}

func TestSeatTokensExportIsRefused(t *testing.T) {
	c, ctx := dial(t), context.Background()
	d := deal(t, c)
	for _, token := range d.GetSeatTokens() {
		_, err := c.ExportPosition(ctx, d.GetSnapshot(), canasta.Token(token))
		wantRefusal(t, err, codes.PermissionDenied, "SEAT_NOT_ALLOWED")
	}
}

// A May I? hand with sets of any size (MI-CON-2) lists more moves than one page holds.
const longListPosition = "mayi-position 1\nvariant: may_i\nplayers: 3\noptions: contract_exact_sizes=false\n" +
	"hand: 3\nphase: meld\nturn: 0\ndrew: stock\nbuys: 3 0 0\n" +
	"hand0: 4S 4S 4H 4H 4D 4D 4C 4C 5S 5S 5H 5H 5D 5D 5C 5C 8S\nhand1: *1\nhand2: *1\nstock: *\n"

func TestLegalMovesComeInPages(t *testing.T) {
	c, ctx := dial(t), context.Background()
	imported, err := c.ImportPosition(ctx, &pb.ImportPositionRequest{Position: longListPosition})
	if err != nil {
		t.Fatal(err)
	}
	host := c.WithToken(imported.GetHostToken())
	first, err := host.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: imported.GetSnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.GetMoves()) != 1000 || first.GetTotalSize() <= 1000 || first.GetNextPageToken() == "" {
		t.Fatalf("first page: %d moves of %d, token %q", len(first.GetMoves()), first.GetTotalSize(), first.GetNextPageToken())
	}
	every, err := host.AllLegalMoves(ctx, imported.GetSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if int32(len(every)) != first.GetTotalSize() || every[999].GetText() != first.GetMoves()[999].GetText() {
		t.Fatalf("AllLegalMoves: %d moves, want %d", len(every), first.GetTotalSize())
	}
	small, err := host.LegalMoves(ctx, &pb.LegalMovesRequest{Snapshot: imported.GetSnapshot(), PageSize: 3, PageToken: first.GetNextPageToken()})
	if err != nil {
		t.Fatal(err)
	}
	if len(small.GetMoves()) != 3 || small.GetMoves()[0].GetText() != every[1000].GetText() {
		t.Fatalf("a page of 3 after the first: %v", small.GetMoves())
	}
}

func TestATimeoutOverMaxTimeoutIsTakenAsAWeek(t *testing.T) {
	// as in every SDK: the server sees a week left, not the 292 years asked
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan time.Duration, 1)
	server := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		left := time.Duration(-1)
		if deadline, ok := stream.Context().Deadline(); ok {
			left = time.Until(deadline)
		}
		seen <- left
		return status.Error(codes.Unimplemented, "noted")
	}))
	go func() { _ = server.Serve(lis) }()
	defer server.Stop()
	c, err := canasta.Dial(lis.Addr().String(), canasta.WithTimeout(math.MaxInt64))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err = c.ListVariants(context.Background()); asError(t, err).Code != codes.Unimplemented {
		t.Fatalf("got %v", err)
	}
	if left := <-seen; left > canasta.MaxTimeout || left < canasta.MaxTimeout-time.Minute {
		t.Fatalf("the server saw %v left, not about %v", left, canasta.MaxTimeout)
	}
}

func TestZeroOrNegativeTimeoutIsADeadlinePastNotNone(t *testing.T) {
	// a server that holds every call unanswered: a client without a deadline would wait on
	// it for ever, where Python, TypeScript and Java fail at once with DEADLINE_EXCEEDED
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	silent := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		<-stream.Context().Done()
		return stream.Context().Err()
	}))
	go func() { _ = silent.Serve(lis) }()
	defer silent.Stop()
	for _, timeout := range []time.Duration{0, -time.Second} {
		c, err := canasta.Dial(lis.Addr().String(), canasta.WithTimeout(timeout))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := c.ListVariants(context.Background()); done <- err }()
		select {
		case err = <-done:
			if cerr := asError(t, err); cerr.Code != codes.DeadlineExceeded || cerr.Reason != "DEADLINE_EXCEEDED" {
				t.Fatalf("WithTimeout(%v): got %v", timeout, cerr)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("WithTimeout(%v): the call had no deadline (still waiting after 5s)", timeout)
		}
		_ = c.Close()
	}
}
