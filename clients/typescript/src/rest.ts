/**
 * The REST transport: the gateway's JSON over `fetch`, for browsers (and any runtime with
 * fetch). Routes come from each RPC's `google.api.http` option.
 */
import { fromJson, getOption, toJson, type DescMessage, type DescMethodUnary, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { CanastaClient, serverUrl, type CallOptions, type CanastaTransport, type ClientOptions } from "./client.js";
import { CanastaError, errorFromRestBody } from "./errors.js";
import { http } from "./gen/google/api/annotations_pb.js";

export * from "./index.js";

/** Options of the REST transport. */
export interface RestOptions extends ClientOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

function route(method: DescMethodUnary): { verb: string; path: string } {
  const rule = getOption(method, http);
  switch (rule.pattern.case) {
    case "get": case "post": case "put": case "delete": case "patch":
      return { verb: rule.pattern.case.toUpperCase(), path: rule.pattern.value };
    default:
      throw new Error(`${method.parent.typeName}.${method.name} has no REST route`);
  }
}

/** A transport calling the REST gateway at `baseUrl` (such as `http://127.0.0.1:8080`). */
export function createRestTransport(baseUrl: string, options: RestOptions = {}): CanastaTransport {
  // a page may name its own origin's gateway by a path ("/rules"); Node has no page
  serverUrl(baseUrl, "restClient", "http://127.0.0.1:8080", globalThis.location?.href);
  const base = baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    async call<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>, input: MessageShape<I>,
      call: CallOptions & { timeoutMs: number },
    ): Promise<MessageShape<O>> {
      const { verb, path } = route(method);
      const sent = verb === "GET" ? undefined : encode(method.input, input);
      // a GET declares no body: with CORS-safelisted headers alone, a page of another
      // origin sends it without a preflight
      const json: Record<string, string> = sent === undefined ? {} : { "content-type": "application/json" };
      const timeout = AbortSignal.timeout(Math.max(0, Math.floor(call.timeoutMs)));
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      let res: Response;
      try {
        // never follow a redirect (the gateway sends none): fetch sent the call's body, its
        // headers, and to the same origin its credential, wherever a proxy's Location said
        res = await doFetch(base + path, {
          method: verb, headers: { ...json, accept: "application/json", ...call.headers }, body: sent, signal,
          redirect: "error",
        });
      } catch (err) {
        throw transportError(err, timeout.aborted, base + path);
      }
      let body: JsonValue | undefined;
      try {
        body = (await res.json()) as JsonValue;
      } catch (err) {
        if (res.ok) throw transportError(err, timeout.aborted, base + path);
      }
      const requestId = res.headers.get("x-request-id");
      if (!res.ok) {
        const error = errorFromRestBody(res.status, body, res.headers.get("retry-after"), requestId);
        if (error.requestId) call.onRequestId?.(error.requestId);
        throw error;
      }
      if (requestId) call.onRequestId?.(requestId);
      return fromJson(method.output, body ?? {}, { ignoreUnknownFields: true });
    },
  };
}

/**
 * The JSON body of `input`; a value of the wrong type (a snapshot given as its base64 text)
 * is refused before anything is sent, `INTERNAL` as the client's other refusals, not as a
 * server that could not be reached.
 */
function encode<I extends DescMessage>(schema: I, input: MessageShape<I>): string {
  try {
    return JSON.stringify(toJson(schema, input));
  } catch (err) {
    throw new CanastaError({ code: "INTERNAL", message: `the request cannot be sent: ${(err as Error).message}`, cause: err });
  }
}

/**
 * A call that got no answer from the gateway. An unreachable one names the URL called and
 * what stopped it (Node's fetch says only `fetch failed`, its cause says why:
 * `connect ECONNREFUSED 127.0.0.1:8080`), so a wrong port or a server not started shows.
 */
function transportError(err: unknown, timedOut: boolean, url: string): CanastaError {
  const name = (err as { name?: string } | null)?.name;
  if (timedOut || name === "TimeoutError") {
    return new CanastaError({ code: "DEADLINE_EXCEEDED", reason: "DEADLINE_EXCEEDED", message: "deadline exceeded", cause: err });
  }
  if (name === "AbortError") return new CanastaError({ code: "CANCELLED", message: "cancelled", cause: err });
  const why = (err as { cause?: { message?: unknown } } | null)?.cause?.message;
  const message = String((err as Error)?.message ?? err) + (typeof why === "string" && why ? ` (${why})` : "");
  return new CanastaError({ code: "UNAVAILABLE", message: `${url}: ${message}`, cause: err });
}

/** A client of the REST gateway at `baseUrl`. */
export function restClient(baseUrl: string, options: RestOptions = {}): CanastaClient {
  return new CanastaClient(createRestTransport(baseUrl, options), options);
}
