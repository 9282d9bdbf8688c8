package canasta

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// FieldViolation is a field the server refused (google.rpc.BadRequest).
type FieldViolation struct {
	Field       string
	Description string
}

// Error is a failed call. Reason is the stable google.rpc.ErrorInfo.reason the server sent
// in the grpc-status-details-bin trailer (SNAPSHOT_INVALID, WRONG_PHASE, NOT_YOUR_TURN, ...).
// Use errors.As to get it, or the Reason and IsReason helpers.
type Error struct {
	// Code is the gRPC status code.
	Code codes.Code
	// Message is the server's message (in the caller's language).
	Message string
	// Reason is ErrorInfo.reason, "" when the server sent none.
	Reason string
	// Domain is ErrorInfo.domain.
	Domain string
	// Metadata is ErrorInfo.metadata (rule, request_id, ...).
	Metadata map[string]string
	// FieldViolations are the BadRequest details.
	FieldViolations []FieldViolation
	// RetryAfter is the delay the server asks for before a retry (google.rpc.RetryInfo),
	// 0 when it sent none (or a negative one, which is malformed). A refusal for load
	// (RESOURCE_EXHAUSTED TOO_MANY_CALLS) says when to come back: wait at least this long
	// before sending the call again. A hint of 0 s is 0 too: RetryHint tells it from none.
	RetryAfter time.Duration

	status    *status.Status
	hinted    bool   // the server sent a RetryInfo, even one of 0 s
	requestID string // the x-request-id trailer of the call
}

// Error implements error.
func (e *Error) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = "-"
	}
	return fmt.Sprintf("canasta: %s %s: %s", e.Code, reason, e.Message)
}

// GRPCStatus lets status.FromError and status.Code see the original status.
func (e *Error) GRPCStatus() *status.Status { return e.status }

// RetryHint is the server's retry delay and whether it sent one (google.rpc.RetryInfo):
// a hint of 0 s means the call may be sent again at once, as in the other SDKs, where no
// hint means it should not be sent again unchanged. A negative delay is malformed and no
// hint: sending the call again at once could hammer a server under load.
func (e *Error) RetryHint() (time.Duration, bool) {
	if e.RetryAfter < 0 {
		return 0, false
	}
	return e.RetryAfter, e.hinted || e.RetryAfter > 0
}

// RequestID is the server's request id of the failed call: ErrorInfo's request_id, else the
// x-request-id it echoed; "" when it sent none (no answer came). Quote it when reporting a
// failure: the server's log lines of the call carry it.
func (e *Error) RequestID() string {
	if id := e.Metadata["request_id"]; id != "" {
		return id
	}
	return e.requestID
}

// Rule is the rule id an engine refusal enforces (Metadata["rule"]), or "".
func (e *Error) Rule() string { return e.Metadata["rule"] }

// IsRuleViolation reports a well-formed move the rules forbid now (FAILED_PRECONDITION).
func (e *Error) IsRuleViolation() bool { return e.Code == codes.FailedPrecondition }

// Reason is the reason code of err (an *Error), or "".
func Reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// IsReason reports whether err is an *Error with the given reason.
func IsReason(err error, reason string) bool { return err != nil && Reason(err) == reason }

// RetryAfter is the retry delay of err (an *Error) the server asked for, or 0.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// fromError turns a gRPC error into an *Error (nil stays nil).
func fromError(err error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			st = status.New(codes.DeadlineExceeded, err.Error())
		case errors.Is(err, context.Canceled):
			st = status.New(codes.Canceled, err.Error())
		default:
			st = status.New(codes.Unknown, err.Error())
		}
	}
	e := &Error{Code: st.Code(), Message: st.Message(), Metadata: map[string]string{}, status: st}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			e.Reason, e.Domain = d.GetReason(), d.GetDomain()
			for k, v := range d.GetMetadata() {
				e.Metadata[k] = v
			}
		case *errdetails.RetryInfo:
			// a negative delay is malformed: no hint, never "at once" (as in every SDK)
			delay := d.GetRetryDelay().AsDuration()
			e.RetryAfter, e.hinted = max(delay, 0), delay >= 0
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				e.FieldViolations = append(e.FieldViolations, FieldViolation{v.GetField(), v.GetDescription()})
			}
		}
	}
	if e.Reason == "" && e.Code == codes.DeadlineExceeded {
		e.Reason = "DEADLINE_EXCEEDED"
	}
	return e
}
