package io.github.canastarules.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A failed call. {@link #getReason()} is the stable {@code google.rpc.ErrorInfo.reason} the
 * server sent in the {@code grpc-status-details-bin} trailer ({@code SNAPSHOT_INVALID}, {@code
 * WRONG_PHASE}, {@code NOT_YOUR_TURN}, {@code SNAPSHOT_STALE}, ...).
 */
public class CanastaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private static final Metadata.Key<byte[]> STATUS_DETAILS =
      Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);

  static final Metadata.Key<String> REQUEST_ID =
      Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);

  /** A field the server refused ({@code google.rpc.BadRequest}). */
  public static final class FieldViolation {
    private final String field;
    private final String description;

    FieldViolation(String field, String description) {
      this.field = field;
      this.description = description;
    }

    /** The field's name, such as {@code players}. */
    public String getField() {
      return field;
    }

    /** Why it was refused. */
    public String getDescription() {
      return description;
    }
  }

  private final Status.Code code;
  private final String serverMessage;
  private final String reason;
  private final String domain;
  private final Map<String, String> metadata;
  private final List<FieldViolation> fieldViolations;
  private final Duration retryAfter;
  private final String requestId;

  CanastaException(Status.Code code, String message, String reason, String domain,
      Map<String, String> metadata, List<FieldViolation> fieldViolations, Duration retryAfter,
      String requestId, Throwable cause) {
    super(code + " " + (reason.isEmpty() ? "-" : reason) + ": " + message, cause);
    this.code = code;
    this.serverMessage = message;
    this.reason = reason;
    this.domain = domain;
    this.metadata = Collections.unmodifiableMap(metadata);
    this.fieldViolations = Collections.unmodifiableList(fieldViolations);
    this.retryAfter = retryAfter;
    String fromDetails = metadata.get("request_id");
    this.requestId = fromDetails != null && !fromDetails.isEmpty() ? fromDetails : requestId;
  }

  /** The typed error of a failed gRPC call, decoded from its status details. */
  public static CanastaException from(StatusRuntimeException e) {
    Status status = e.getStatus();
    String message = status.getDescription() == null ? "" : status.getDescription();
    String reason = "";
    String domain = "";
    Map<String, String> metadata = new LinkedHashMap<>();
    List<FieldViolation> violations = new ArrayList<>();
    Duration retryAfter = null;
    com.google.rpc.Status details = statusDetails(e);
    if (details != null) {
      if (!details.getMessage().isEmpty()) {
        message = details.getMessage();
      }
      for (Any any : details.getDetailsList()) {
        try {
          if (any.is(ErrorInfo.class)) {
            ErrorInfo info = any.unpack(ErrorInfo.class);
            reason = info.getReason();
            domain = info.getDomain();
            metadata.putAll(info.getMetadataMap());
          } else if (any.is(BadRequest.class)) {
            for (BadRequest.FieldViolation v : any.unpack(BadRequest.class).getFieldViolationsList()) {
              violations.add(new FieldViolation(v.getField(), v.getDescription()));
            }
          } else if (any.is(RetryInfo.class)) {
            com.google.protobuf.Duration delay = any.unpack(RetryInfo.class).getRetryDelay();
            Duration hint = Duration.ofSeconds(delay.getSeconds(), delay.getNanos());
            // a negative delay is malformed: no hint, never "at once" (as in every SDK)
            retryAfter = hint.isNegative() ? null : hint;
          }
        } catch (InvalidProtocolBufferException ignored) {
          // a detail that does not parse is left out
        }
      }
    }
    if (reason.isEmpty() && status.getCode() == Status.Code.DEADLINE_EXCEEDED) {
      reason = "DEADLINE_EXCEEDED";
    }
    if (details == null) {
      message = withTransportCause(message, status.getCause());
    }
    Status.Code code = status.getCode();
    if (code == Status.Code.INTERNAL && details == null && isHttp2Failure(status.getCause())) {
      code = Status.Code.UNAVAILABLE;
    }
    Metadata trailers = e.getTrailers();
    String requestId = trailers == null ? null : trailers.get(REQUEST_ID);
    return new CanastaException(code, message, reason, domain, metadata, violations,
        retryAfter, requestId, e);
  }

  /**
   * A status no server sent, with what stopped the call: grpc-java describes an unreachable
   * server as "io exception" alone, its cause says why and where ("Connection refused:
   * /127.0.0.1:50051"), as the other SDKs' messages do.
   */
  private static String withTransportCause(String message, Throwable cause) {
    String why = cause == null ? null : cause.getMessage();
    if (why == null || why.isEmpty() || message.contains(why)) {
      return message;
    }
    return message.isEmpty() ? why : message + " (" + why + ")";
  }

  /**
   * Whether a call failed in Netty's HTTP/2 codec, with no status from a server: the peer
   * speaks no HTTP/2 (an HTTP/1.1 server, a port answering garbage). grpc-java says INTERNAL
   * ("http2 exception"); Python's, Go's and TypeScript's gRPC, and gRPC's status code rules
   * for a server that cannot be reached, say UNAVAILABLE, and so does this client.
   */
  private static boolean isHttp2Failure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getClass().getName().endsWith(".Http2Exception")
          || (t.getClass().getSuperclass() != null
              && t.getClass().getSuperclass().getName().endsWith(".Http2Exception"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The {@code google.rpc.Status} of the call's {@code grpc-status-details-bin} trailer, or null
   * when there is none or it does not parse. Unlike {@code StatusProto.fromThrowable}, a trailer
   * that does not parse, or whose code is not the call's (a proxy, a broken server), is no
   * {@code IllegalArgumentException}: the call's own code is the error's.
   */
  private static com.google.rpc.Status statusDetails(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    byte[] raw = trailers == null ? null : trailers.get(STATUS_DETAILS);
    if (raw == null) {
      return null;
    }
    try {
      return com.google.rpc.Status.parseFrom(raw);
    } catch (InvalidProtocolBufferException ignored) {
      return null;
    }
  }

  /** The gRPC status code. */
  public Status.Code getCode() {
    return code;
  }

  /** The server's message (in the caller's language). */
  public String getServerMessage() {
    return serverMessage;
  }

  /** {@code ErrorInfo.reason}, or "" when the server sent none. */
  public String getReason() {
    return reason;
  }

  /** {@code ErrorInfo.domain}. */
  public String getDomain() {
    return domain;
  }

  /** {@code ErrorInfo.metadata} ({@code rule}, {@code request_id}, ...). */
  public Map<String, String> getMetadata() {
    return metadata;
  }

  /** The rule id an engine refusal enforces, if any. */
  public Optional<String> getRule() {
    return Optional.ofNullable(metadata.get("rule"));
  }

  /** {@code BadRequest.field_violations}. */
  public List<FieldViolation> getFieldViolations() {
    return fieldViolations;
  }

  /**
   * How long the server asks to wait before retrying ({@code google.rpc.RetryInfo.retry_delay}),
   * sent when it refused the call for load ({@code RESOURCE_EXHAUSTED} {@code TOO_MANY_CALLS});
   * empty when it sent none, or a negative one (malformed: no hint, never "at once").
   */
  public Optional<Duration> getRetryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /**
   * The server's request id of the failed call ({@code ErrorInfo.metadata["request_id"]}, else
   * the {@code x-request-id} it echoed); empty when none came (a server that could not be
   * reached). Quote it when reporting a failure: the server's log lines of the call carry it.
   */
  public Optional<String> getRequestId() {
    return Optional.ofNullable(requestId == null || requestId.isEmpty() ? null : requestId);
  }

  /** True for a well-formed move the rules forbid now ({@code FAILED_PRECONDITION}). */
  public boolean isRuleViolation() {
    return code == Status.Code.FAILED_PRECONDITION;
  }
}
