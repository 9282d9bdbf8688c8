/** Native gRPC for Node (HTTP/2), with Connect's gRPC transport. */
import type { DescMessage, DescMethodUnary, MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, type GrpcTransportOptions } from "@connectrpc/connect-node";
import { CanastaClient, serverUrl, type CallOptions, type CanastaTransport, type ClientOptions } from "./client.js";
import { errorFromStatusBytes, type StatusCodeName } from "./errors.js";
import { CanastaEngine } from "./gen/canasta/v1/engine_service_pb.js";

export * from "./index.js";

/** Options of the gRPC transport. */
export interface GrpcOptions extends ClientOptions {
  /** More options for Connect's gRPC transport (TLS, interceptors, ...). */
  transport?: Partial<GrpcTransportOptions>;
}

const STATUS_DETAILS = "grpc-status-details-bin";
const REQUEST_ID = "x-request-id";

/** Hands the server's request id of a call, when it sent one, to the call's `onRequestId`. */
function reportRequestId(call: CallOptions, id: string | null | undefined): void {
  if (id) call.onRequestId?.(id);
}

function codeName(code: Code): StatusCodeName {
  if (code === Code.Canceled) return "CANCELLED";
  return Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase() as StatusCodeName;
}

/**
 * The code of a failed call. A call that got no gRPC status (no `grpc-status` from a server)
 * and that the caller neither cancelled nor timed out failed in transport: the connection
 * was refused, reset or closed mid-call, or the peer speaks no gRPC (an HTTP/1.1 server, a
 * port that answers garbage). That is UNAVAILABLE, as in the other SDKs and gRPC's status
 * code rules, where Connect's Node transport says CANCELLED (a stream reset with CANCEL,
 * which the caller never asked for), ABORTED (ECONNRESET: in this API ABORTED means a stale
 * snapshot) or INTERNAL (Node's HTTP/2 protocol error).
 */
function callCode(ce: ConnectError, signal: AbortSignal | undefined): StatusCodeName {
  const fromServer = ce.metadata.has("grpc-status");
  const nodeError = typeof (ce.cause as { code?: unknown } | undefined)?.code === "string";
  const transport = ce.code === Code.Canceled || ce.code === Code.Aborted ||
    (ce.code === Code.Internal && nodeError);
  if (!fromServer && transport && !signal?.aborted) return "UNAVAILABLE";
  return codeName(ce.code);
}

function decodeBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}

/** A transport over native gRPC at `baseUrl` (such as `http://127.0.0.1:50051`). */
export function createGrpcCanastaTransport(baseUrl: string, options: GrpcOptions = {}): CanastaTransport {
  serverUrl(baseUrl, "grpcClient", "http://127.0.0.1:50051");
  const transport: Transport = createGrpcTransport({ baseUrl, ...options.transport });
  const client: Client<typeof CanastaEngine> = createClient(CanastaEngine, transport);
  return {
    async call<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>, input: MessageShape<I>,
      call: CallOptions & { timeoutMs: number },
    ): Promise<MessageShape<O>> {
      const fn = (client as unknown as Record<string, (req: unknown, o: object) => Promise<MessageShape<O>>>)[method.localName];
      try {
        // grpc-timeout takes whole units: round up to a millisecond
        const timeoutMs = Math.max(1, Math.ceil(call.timeoutMs));
        return await fn(input, {
          timeoutMs, signal: call.signal, headers: call.headers,
          onTrailer: (trailers: Headers) => reportRequestId(call, trailers.get(REQUEST_ID)),
        });
      } catch (err) {
        const ce = ConnectError.from(err);
        const raw = ce.metadata.get(STATUS_DETAILS);
        const error = errorFromStatusBytes(callCode(ce, call.signal), ce.rawMessage,
          raw ? decodeBase64(raw) : undefined, err, ce.metadata.get(REQUEST_ID) ?? undefined);
        reportRequestId(call, error.requestId);
        return Promise.reject(error);
      }
    },
  };
}

/** A client over native gRPC at `baseUrl` (such as `http://127.0.0.1:50051`). */
export function grpcClient(baseUrl: string, options: GrpcOptions = {}): CanastaClient {
  return new CanastaClient(createGrpcCanastaTransport(baseUrl, options), options);
}
