import { fromBinary, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { anyIs, anyUnpack, DurationSchema, type Duration } from "@bufbuild/protobuf/wkt";
import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from "./gen/google/rpc/error_details_pb.js";
import { StatusSchema } from "./gen/google/rpc/status_pb.js";

/** gRPC status code names (google.rpc.Code), as both transports report them. */
export type StatusCodeName =
  | "CANCELLED" | "UNKNOWN" | "INVALID_ARGUMENT" | "DEADLINE_EXCEEDED" | "NOT_FOUND"
  | "ALREADY_EXISTS" | "PERMISSION_DENIED" | "RESOURCE_EXHAUSTED" | "FAILED_PRECONDITION"
  | "ABORTED" | "OUT_OF_RANGE" | "UNIMPLEMENTED" | "INTERNAL" | "UNAVAILABLE" | "DATA_LOSS"
  | "UNAUTHENTICATED";

/** A field the server refused (google.rpc.BadRequest). */
export interface FieldViolation {
  field: string;
  description: string;
}

/** What a {@link CanastaError} is made from. */
export interface CanastaErrorInit {
  code: StatusCodeName;
  message: string;
  reason?: string;
  domain?: string;
  metadata?: Record<string, string>;
  fieldViolations?: FieldViolation[];
  retryAfterMs?: number;
  httpStatus?: number;
  /** The `x-request-id` the server echoed, when the details carry no `request_id`. */
  requestId?: string;
  cause?: unknown;
}

/**
 * A failed call. `reason` is the stable `google.rpc.ErrorInfo.reason` the server sent
 * (`SNAPSHOT_INVALID`, `WRONG_PHASE`, `NOT_YOUR_TURN`, ...), from the
 * `grpc-status-details-bin` trailer over gRPC or the AIP-193 body over REST.
 */
export class CanastaError extends Error {
  override readonly name = "CanastaError";
  /** The gRPC status code name (`INVALID_ARGUMENT`, `FAILED_PRECONDITION`, ...). */
  readonly code: StatusCodeName;
  /**
   * The server's message alone, in the caller's language (`the hand is over: deal the next
   * one`): what a table shows a player. `message` leads it with the code and the reason, for
   * logs, as an Error's message does; the other SDKs' errors have it too (Python `message`,
   * Go `Message`, Java `getServerMessage()`).
   */
  readonly serverMessage: string;
  /** `ErrorInfo.reason`, or "" when the server sent none. */
  readonly reason: string;
  /** `ErrorInfo.domain`. */
  readonly domain: string;
  /** `ErrorInfo.metadata` (`rule`, `request_id`, ...). */
  readonly metadata: Record<string, string>;
  /** `BadRequest.fieldViolations`. */
  readonly fieldViolations: FieldViolation[];
  /**
   * The delay in milliseconds the server asks for before a retry, undefined when it said
   * none. A refusal for load (RESOURCE_EXHAUSTED `TOO_MANY_CALLS`, REST's 503) says when to
   * come back: `google.rpc.RetryInfo`, or over REST the `Retry-After` header.
   */
  readonly retryAfterMs?: number;
  /** The HTTP status (REST transport only). */
  readonly httpStatus?: number;
  /**
   * The server's request id of the failed call (`metadata.request_id`, else the
   * `x-request-id` it echoed), undefined when none came: quote it when reporting a failure,
   * the server's log lines of the call carry it.
   */
  readonly requestId?: string;

  constructor(init: CanastaErrorInit) {
    super(`${init.code} ${init.reason || "-"}: ${init.message}`, { cause: init.cause });
    this.code = init.code;
    this.serverMessage = init.message;
    this.reason = init.reason ?? "";
    this.domain = init.domain ?? "";
    this.metadata = init.metadata ?? {};
    this.fieldViolations = init.fieldViolations ?? [];
    this.retryAfterMs = init.retryAfterMs;
    this.httpStatus = init.httpStatus;
    this.requestId = this.metadata["request_id"] || init.requestId || undefined;
  }

  /** The rule id an engine refusal enforces (`metadata.rule`), if any. */
  get rule(): string | undefined {
    return this.metadata["rule"];
  }

  /** True for a well-formed move the rules forbid now (FAILED_PRECONDITION). */
  get isRuleViolation(): boolean {
    return this.code === "FAILED_PRECONDITION";
  }
}

/** The error of a `google.rpc.Status` in binary form (the `grpc-status-details-bin` trailer). */
export function errorFromStatusBytes(
  code: StatusCodeName, message: string, bytes: Uint8Array | undefined, cause?: unknown,
  requestId?: string,
): CanastaError {
  const init: CanastaErrorInit = { code, message, cause, requestId };
  if (bytes && bytes.length > 0) {
    const status = fromBinary(StatusSchema, bytes);
    init.message = status.message || message;
    for (const detail of status.details) {
      if (anyIs(detail, ErrorInfoSchema)) {
        const info = anyUnpack(detail, ErrorInfoSchema)!;
        init.reason = info.reason;
        init.domain = info.domain;
        init.metadata = { ...info.metadata };
      } else if (anyIs(detail, BadRequestSchema)) {
        const bad = anyUnpack(detail, BadRequestSchema)!;
        init.fieldViolations = bad.fieldViolations.map((v) => ({
          field: v.field, description: v.description,
        }));
      } else if (anyIs(detail, RetryInfoSchema)) {
        init.retryAfterMs = durationMs(anyUnpack(detail, RetryInfoSchema)!.retryDelay);
      }
    }
  }
  if (!init.reason && code === "DEADLINE_EXCEEDED") init.reason = "DEADLINE_EXCEEDED";
  return new CanastaError(init);
}

const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";
const BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest";
const RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";

/**
 * A Duration in whole milliseconds (rounded up: wait at least that long), if not negative: a
 * negative delay is malformed, no hint, never "at once" (as in every SDK). The sign is read
 * before rounding: -0.1 ms rounds up to -0, which would pass for a hint of 0 s.
 */
function durationMs(d: Duration | undefined): number | undefined {
  if (!d) return undefined;
  const ms = Number(d.seconds) * 1000 + d.nanos / 1e6;
  return ms >= 0 ? Math.ceil(ms) : undefined;
}

/**
 * The error of a REST answer whose status is not 2xx (an AIP-193 body, when there is one).
 * `retryAfter` is the answer's `Retry-After` header, read (as delta-seconds) when the body
 * has no RetryInfo.
 */
export function errorFromRestBody(
  httpStatus: number, body: JsonValue | undefined, retryAfter?: string | null,
  requestId?: string | null,
): CanastaError {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  const init: CanastaErrorInit = {
    code: (typeof error?.["status"] === "string" ? error["status"] : codeOfHttp(httpStatus)) as
      StatusCodeName,
    message: typeof error?.["message"] === "string" ? error["message"] : `HTTP ${httpStatus}`,
    httpStatus,
    requestId: requestId ?? undefined,
  };
  const details = Array.isArray(error?.["details"]) ? (error["details"] as Record<string, unknown>[]) : [];
  for (const d of details) {
    if (d["@type"] === ERROR_INFO) {
      init.reason = String(d["reason"] ?? "");
      init.domain = String(d["domain"] ?? "");
      init.metadata = { ...(d["metadata"] as Record<string, string> | undefined) };
    } else if (d["@type"] === BAD_REQUEST && Array.isArray(d["fieldViolations"])) {
      init.fieldViolations = (d["fieldViolations"] as FieldViolation[]).map((v) => ({
        field: String(v.field ?? ""), description: String(v.description ?? ""),
      }));
    } else if (d["@type"] === RETRY_INFO) {
      try {
        init.retryAfterMs = durationMs(fromJson(DurationSchema, d["retryDelay"] as JsonValue));
      } catch {
        // a retryDelay that is no Duration string: no hint
      }
    }
  }
  if (init.retryAfterMs === undefined && retryAfter && /^\s*\d+\s*$/.test(retryAfter)) {
    init.retryAfterMs = Number(retryAfter) * 1000;
  }
  return new CanastaError(init);
}

/**
 * The code of an answer without an AIP-193 body (a proxy's, a load balancer's). A 502 (bad
 * gateway: the server behind it could not be reached) is UNAVAILABLE, as gRPC reads it and
 * so the other SDKs report the same proxy's refusal; it was INTERNAL here.
 */
function codeOfHttp(status: number): StatusCodeName {
  switch (status) {
    case 400: return "INVALID_ARGUMENT";
    case 401: return "UNAUTHENTICATED";
    case 403: return "PERMISSION_DENIED";
    case 404: return "NOT_FOUND";
    case 409: return "ABORTED";
    case 413: case 429: return "RESOURCE_EXHAUSTED";
    case 501: return "UNIMPLEMENTED";
    case 502: case 503: return "UNAVAILABLE";
    case 504: return "DEADLINE_EXCEEDED";
    default: return status >= 500 ? "INTERNAL" : "UNKNOWN";
  }
}
