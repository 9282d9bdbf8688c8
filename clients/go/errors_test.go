package canasta

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// refusal is the status the server sends when it refuses a call for load.
func refusal(t *testing.T, code codes.Code, reason string, delay time.Duration) error {
	t.Helper()
	st, err := status.New(code, "server busy").WithDetails(
		&errdetails.ErrorInfo{Reason: reason, Domain: "canasta.rules", Metadata: map[string]string{"request_id": "r1"}},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(delay)},
	)
	if err != nil {
		t.Fatal(err)
	}
	return st.Err()
}

func TestRetryInfoGivesRetryAfter(t *testing.T) {
	for _, c := range []struct {
		code   codes.Code
		reason string
		delay  time.Duration
	}{
		{codes.ResourceExhausted, "TOO_MANY_CALLS", time.Second},
		{codes.Unavailable, "UNAVAILABLE", 1500 * time.Millisecond},
	} {
		err := fromError(refusal(t, c.code, c.reason, c.delay))
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("not an *Error: %v", err)
		}
		if e.RetryAfter != c.delay || RetryAfter(err) != c.delay {
			t.Fatalf("%s: RetryAfter %v, RetryAfter(err) %v, want %v", c.reason, e.RetryAfter, RetryAfter(err), c.delay)
		}
		if e.Code != c.code || e.Reason != c.reason || !IsReason(err, c.reason) || e.Metadata["request_id"] != "r1" {
			t.Fatalf("%s: code %v reason %q metadata %v", c.reason, e.Code, e.Reason, e.Metadata)
		}
	}
}

func TestNoRetryInfoIsZeroRetryAfter(t *testing.T) {
	st, err := status.New(codes.FailedPrecondition, "not now").WithDetails(&errdetails.ErrorInfo{Reason: "WRONG_PHASE"})
	if err != nil {
		t.Fatal(err)
	}
	got := fromError(st.Err())
	var e *Error
	if !errors.As(got, &e) {
		t.Fatalf("not an *Error: %v", got)
	}
	if e.RetryAfter != 0 || RetryAfter(got) != 0 || e.Reason != "WRONG_PHASE" {
		t.Fatalf("RetryAfter %v, RetryAfter(err) %v, reason %q", e.RetryAfter, RetryAfter(got), e.Reason)
	}
}

func TestRetryAfterOfOtherErrorsIsZero(t *testing.T) {
	for _, err := range []error{nil, errors.New("plain"), fmt.Errorf("wrapped: %w", errors.New("plain"))} {
		if d := RetryAfter(err); d != 0 {
			t.Fatalf("RetryAfter(%v) = %v", err, d)
		}
	}
	wrapped := fmt.Errorf("call: %w", fromError(refusal(t, codes.ResourceExhausted, "TOO_MANY_CALLS", time.Second)))
	if d := RetryAfter(wrapped); d != time.Second {
		t.Fatalf("RetryAfter(wrapped) = %v", d)
	}
}

func TestRetryHintTellsZeroSecondsFromNone(t *testing.T) {
	zero := fromError(refusal(t, codes.ResourceExhausted, "TOO_MANY_CALLS", 0)).(*Error)
	if d, ok := zero.RetryHint(); d != 0 || !ok {
		t.Fatalf("a RetryInfo of 0 s: RetryHint() = %v, %v; want 0, true", d, ok)
	}
	st, err := status.New(codes.ResourceExhausted, "busy").WithDetails(&errdetails.ErrorInfo{Reason: "TOO_MANY_CALLS"})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := fromError(st.Err()).(*Error).RetryHint(); d != 0 || ok {
		t.Fatalf("no RetryInfo: RetryHint() = %v, %v; want 0, false", d, ok)
	}
	// an Error made by hand with a RetryAfter (a test double) is hinted too
	if d, ok := (&Error{RetryAfter: time.Second}).RetryHint(); d != time.Second || !ok {
		t.Fatalf("RetryHint() = %v, %v", d, ok)
	}
}
