import { create, type DescMessage, type DescMethodUnary, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import {
  ApplyMoveRequestSchema, CanastaEngine, DealRequestSchema, ExportPositionRequestSchema,
  ExportRecordRequestSchema, type ExportRecordResponse,
  GetViewRequestSchema, ImportPositionRequestSchema, LegalMovesRequestSchema,
  ListVariantsRequestSchema, NextDealRequestSchema, ScoreHandRequestSchema,
  SuggestMoveRequestSchema, type ApplyMoveResponse, type DealResponse,
  type ExportPositionResponse, type GetViewResponse, type ImportPositionResponse,
  type LegalMovesResponse, type ListVariantsResponse, type NextDealResponse,
  type ScoreHandResponse, type SuggestMoveResponse,
} from "./gen/canasta/v1/engine_service_pb.js";
import { MoveSchema, type Move } from "./gen/canasta/v1/game_pb.js";
import { CanastaError } from "./errors.js";

/** Per-call options. */
export interface CallOptions {
  /** Deadline of this call in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Extra headers / metadata, such as `accept-language` or `x-request-id`. */
  headers?: Record<string, string>;
  /** This call's credential, instead of the client's (`""`: none, a spectator's call). */
  token?: string;
  /**
   * This call's request id, sent as `x-request-id`: the server echoes it, and puts it in its
   * log lines of the call and in an error's `metadata.request_id`. Unset: the server makes one.
   */
  requestId?: string;
  /**
   * Called with the request id the server echoed for the call (its `x-request-id`), when it
   * answered and when it refused (then also the {@link CanastaError}'s `requestId`); once
   * per attempt with retries. A transport that cannot read it does not call it.
   */
  onRequestId?: (requestId: string) => void;
}

/** How calls travel: native gRPC (`@canasta-rules/client/node`) or REST JSON (`.../rest`). */
export interface CanastaTransport {
  call<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>, input: MessageShape<I>,
    options: CallOptions & { timeoutMs: number },
  ): Promise<MessageShape<O>>;
}

/** Client options. */
export interface ClientOptions {
  /** Default deadline of each call in milliseconds (10 000). */
  timeoutMs?: number;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
  /**
   * The credential sent with every call (`authorization: Bearer <token>`): a game's
   * `hostToken` or one of its `seatTokens`. Without one a call is a spectator's.
   */
  token?: string;
  /**
   * How many times a call that the server refused for load, saying when to send it again
   * (`retryAfterMs`, as on `TOO_MANY_CALLS`), is sent again after that delay (at most
   * {@link MAX_RETRY_WAIT_MS}). Every RPC is pure, so this is safe. The call's deadline
   * covers its retries: a wait that would pass it is not made. Default 0: reject at once.
   */
  retries?: number;
}

/** The longest wait, in milliseconds, on a server's retry hint before a call is sent again. */
export const MAX_RETRY_WAIT_MS = 10_000;

/**
 * The longest timeout, in milliseconds, a call is given (a week, in every SDK): a longer one
 * is taken as this. No call of the service takes near it, and every transport can time it:
 * Node's timers took one over about 24.8 days as 1 ms (a `DEADLINE_EXCEEDED` at once, over
 * gRPC and REST), and REST's `AbortSignal.timeout` threw Node's untyped `ERR_OUT_OF_RANGE`
 * beyond about 49.7 days.
 */
export const MAX_TIMEOUT_MS = 7 * 24 * 3600 * 1000;

/** A move given as a `Move`, its init shape, or its text form (`"discard 4D"`). */
export type MoveLike = Move | MessageInitShape<typeof MoveSchema> | string;
/** The request of Deal (`variant` and `players` required; `seed` is a bigint). */
export type DealInit = MessageInitShape<typeof DealRequestSchema>;

/** The request of ImportPosition (`position` required). */
export type ImportPositionInit = MessageInitShape<typeof ImportPositionRequestSchema>;

/** LegalMoves's optional fields, given with its call options: one page of the list. */
export interface LegalMovesExtras {
  /** The most moves to answer (0 or unset: the server's maximum, 1,000). */
  pageSize?: number;
  /** The previous answer's `nextPageToken`, for the next page of the same snapshot's list. */
  pageToken?: string;
}

/** ApplyMove's optional fields. */
export interface ApplyMoveExtras {
  expectedSeq?: bigint;
  seat?: number;
  viewSeat?: number;
  /** The snapshot's game must be this one (`header.gameId`), else `SNAPSHOT_WRONG_GAME`. */
  expectedGameId?: string;
}

/** NextDeal's optional fields. */
export interface NextDealExtras {
  deck?: string[];
  expectedSeq?: bigint;
  viewSeat?: number;
  /** The snapshot's game must be this one (`header.gameId`), else `SNAPSHOT_WRONG_GAME`. */
  expectedGameId?: string;
}

/** ExportRecord's optional fields. */
export interface ExportRecordExtras {
  /**
   * Whose record: a seat's, -1 the public one (the host's token: any seat's; a seat's
   * token: its own or -1; no token: -1 only). Unset: the token's.
   */
  viewSeat?: number;
}

/** SuggestMove's optional fields. */
export interface SuggestMoveExtras {
  /** `"greedy"` (the default), `"random"` or `"expert"`. */
  level?: string;
  /** The expert's playouts (the server's default when unset; clamped to its maximum). */
  budget?: number;
  /** The same snapshot, level and seed give the same move. */
  seed?: bigint;
  /** The seat to advise (the host's token only; a seat's token gets its own seat's move). */
  seat?: number;
}

/** A random 64-bit deal seed, from the platform's cryptographic generator (Node, browsers). */
function randomSeed(): bigint {
  return globalThis.crypto.getRandomValues(new BigUint64Array(1))[0];
}

/** Resolves after `ms`, or rejects with `refusal` once `signal` aborts (the caller gave up). */
function pause(ms: number, signal: AbortSignal | undefined, refusal: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(refusal);
    const stop = () => { clearTimeout(timer); reject(refusal); };
    const timer = setTimeout(() => { signal?.removeEventListener("abort", stop); resolve(); }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** Sets header `name` (lower case) in `headers`, dropping any spelling of it already there. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) delete headers[key];
  headers[name] = value;
}

/**
 * Refuses a header value with a character below `lowest` or past `~`, before anything is
 * sent, as every SDK does. A token is visible ASCII (a space, as around a token read from a
 * file, a control character such as a newline, or one outside ASCII is refused); a request
 * id may hold spaces, as in the Python SDK. Node's HTTP/2 would fail the call as UNKNOWN or
 * a bare "Invalid metadata", fetch as UNAVAILABLE, a browser's as a network error. The value
 * itself is not in the message.
 */
function refuseUnsendable(value: string, what: string, lowest: number, allowed: string): void {
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i);
    if (ch < lowest || ch > 0x7e) {
      throw new CanastaError({
        code: "INTERNAL",
        message: `${what} cannot be sent: its character ${i + 1} (U+${codePoint(value[i])}) is not ${allowed}`,
      });
    }
  }
}

/**
 * Refuses each header a call would send that HTTP/2 cannot carry, before anything is sent,
 * as the token and the request id are: a name with a character other than a letter, a digit,
 * `-`, `_` or `.`, a value with one outside printable ASCII. fetch's `Headers` (of both
 * transports) quoted the whole value in its error, an `authorization` header's credential
 * too, and sent a character past U+007F as a mangled byte. Names the header and the
 * character, never the value.
 */
function refuseUnsendableHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const bad = /[^A-Za-z0-9_.-]/.exec(name);
    if (bad || !name) {
      const where = bad ? `: its character ${bad.index + 1} (U+${codePoint(bad[0])}) is not a letter, a digit, '-', '_' or '.'` : ": it is empty";
      throw new CanastaError({ code: "INTERNAL", message: `the header name '${name}' cannot be sent${where}` });
    }
    refuseUnsendable(String(value), `the header value of '${name.toLowerCase()}'`, 0x20, "printable ASCII");
  }
}

function codePoint(ch: string): string {
  return ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
}

/**
 * `url` with any `user:password@` in its authority replaced by `***@`, for messages: the
 * userinfo is a credential (as a URL or as a `host:port` with one before it).
 */
export function withoutUserinfo(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/|\/\/)?[^/?#@]*@/, "$1***@");
}

/**
 * `baseUrl` if it is an http(s) URL (resolved against `relativeTo`, a page's address, when
 * given). A `host:port` target, which the Python, Go and Java clients take, is refused at
 * once in words that show the URL to write, rather than by Node's bare `Invalid URL` from
 * inside the transport or a `fetch failed` on every call. A URL with a `user:password@` is
 * refused too: fetch refuses to send one (each call failed with the whole URL, password and
 * all, in its message) and gRPC ignored it; the game's credential is a token. No message
 * shows the userinfo.
 */
export function serverUrl(baseUrl: string, factory: string, example: string, relativeTo?: string): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl, relativeTo);
  } catch {
    // not a URL: refused below
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw new TypeError(`${factory} takes the server's URL with its scheme, such as "${example}", not "${withoutUserinfo(baseUrl)}"`);
  }
  if (url.username || url.password) {
    throw new TypeError(`${factory} takes the server's URL without a user or password (send the game's token with the token option), not "${withoutUserinfo(baseUrl)}"`);
  }
  return baseUrl;
}

/**
 * Refuses a timeout that is not a number of milliseconds (`NaN`, `Infinity`), as the Python
 * SDK does: the REST transport threw Node's untyped `ERR_OUT_OF_RANGE`, the gRPC one failed
 * the call at once as `DEADLINE_EXCEEDED` (`Infinity`, read as "no deadline", which no SDK
 * has, became 1 ms). 0 or less is a deadline already past, as in every SDK.
 */
function checkTimeout(timeoutMs: number): void {
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs)) {
    throw new RangeError(`timeoutMs must be a finite number of milliseconds, not ${timeoutMs}`);
  }
}

/** A move from its text form. */
export function move(text: string): Move {
  return create(MoveSchema, { text });
}

/** The first listed move that is not "undo" or "ask": echoing it ends a hand quickly. */
export function firstProgressMove(moves: readonly Move[]): Move {
  const found = moves.find((m) => m.text !== "undo" && m.text !== "ask");
  if (!found) throw new Error("no move to play");
  return found;
}

/**
 * The client of one server, over either transport. Every method returns the generated
 * response message and rejects with a {@link CanastaError} carrying the reason code.
 * It sends its `token` with every call; a call's own `token` option wins over it.
 */
export class CanastaClient {
  readonly timeoutMs: number;
  readonly retries: number;
  // JS private fields (#), not TypeScript's `private`: they stay out of console.log /
  // util.inspect, JSON.stringify and Object.keys, so printing a client never shows its
  // credential (the token, or an `authorization` among the headers).
  readonly #transport: CanastaTransport;
  readonly #token: string | undefined;
  readonly #headers: Record<string, string>;

  constructor(transport: CanastaTransport, options: ClientOptions = {}) {
    this.#transport = transport;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.#headers = options.headers ?? {};
    this.#token = options.token;
    this.retries = options.retries ?? 0;
    if (!Number.isInteger(this.retries) || this.retries < 0) {
      throw new RangeError(`retries must be a whole number, 0 or more, not ${options.retries}`);
    }
    checkTimeout(this.timeoutMs);
  }

  /** The same client (and transport) sending `token` with every call: a seat's or the host's. */
  withToken(token: string | undefined): CanastaClient {
    return new CanastaClient(this.#transport,
      { timeoutMs: this.timeoutMs, headers: this.#headers, token, retries: this.retries });
  }

  private async call<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>, input: MessageInitShape<I>, options: CallOptions = {},
  ): Promise<MessageShape<O>> {
    const { token = this.#token, requestId, ...rest } = options;
    const headers = { ...this.#headers, ...options.headers };
    if (token) {
      refuseUnsendable(token, "the token", 0x21, "visible ASCII");
      setHeader(headers, "authorization", `Bearer ${token}`);
    }
    if (requestId) {
      refuseUnsendable(requestId, "the request id", 0x20, "printable ASCII");
      setHeader(headers, "x-request-id", requestId);
    }
    refuseUnsendableHeaders(headers);
    const request = create(method.input, input);
    const asked = options.timeoutMs ?? this.timeoutMs;
    checkTimeout(asked);
    const timeoutMs = Math.min(asked, MAX_TIMEOUT_MS);
    const deadline = performance.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#transport.call(method, request, {
          ...rest, headers,
          // a retry gets what is left of the call's deadline
          timeoutMs: attempt === 0 ? timeoutMs : Math.max(0, deadline - performance.now()),
        });
      } catch (err) {
        const hint = err instanceof CanastaError ? err.retryAfterMs : undefined;
        if (hint === undefined || attempt >= this.retries) throw err;
        const wait = Math.min(Math.max(hint, 0), MAX_RETRY_WAIT_MS);
        if (performance.now() + wait >= deadline) throw err;
        await pause(wait, options.signal, err);
      }
    }
  }

  /** The games this server plays, with their rule options. */
  listVariants(options?: CallOptions): Promise<ListVariantsResponse> {
    return this.call(CanastaEngine.method.listVariants, create(ListVariantsRequestSchema), options);
  }

  /**
   * Deal the first hand of a new game; the answer carries its `hostToken` and `seatTokens`.
   * `seed` decides the shuffle and every later hand; left out, the client sends a random
   * 64-bit one (unset on the wire it is 0: every such game would be the same deal).
   */
  deal(request: DealInit, options?: CallOptions): Promise<DealResponse> {
    const seeded = request.seed === undefined ? { ...request, seed: randomSeed() } : request;
    return this.call(CanastaEngine.method.deal, seeded, options);
  }

  /**
   * The legal moves of the seat whose move is due (host), or of the token's seat when it may
   * act: one page (at most 1,000 moves; `nextPageToken` set when the list goes on).
   */
  legalMoves(snapshot: Uint8Array,
             options?: CallOptions & LegalMovesExtras): Promise<LegalMovesResponse> {
    const { pageSize, pageToken, ...call } = options ?? {};
    return this.call(CanastaEngine.method.legalMoves,
                     create(LegalMovesRequestSchema, { snapshot, pageSize, pageToken }), call);
  }

  /** Every legal move of `legalMoves`, its pages followed to the end. */
  async allLegalMoves(snapshot: Uint8Array, options?: CallOptions): Promise<Move[]> {
    const moves: Move[] = [];
    let pageToken = "";
    do {
      const page = await this.legalMoves(snapshot, { ...options, pageToken });
      moves.push(...page.moves);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return moves;
  }

  /**
   * Apply one move: a listed `Move` echoed back, a typed move, or its text form. The host's
   * token moves for any seat, a seat's token for its seat only.
   */
  applyMove(snapshot: Uint8Array, move: MoveLike, extras: ApplyMoveExtras = {},
            options?: CallOptions): Promise<ApplyMoveResponse> {
    const m = typeof move === "string" ? { text: move } : move;
    return this.call(CanastaEngine.method.applyMove,
      create(ApplyMoveRequestSchema, { snapshot, move: m, ...extras }), options);
  }

  /** Play a move given in its text form, such as `"discard 4D"`. */
  play(snapshot: Uint8Array, text: string, extras: ApplyMoveExtras = {},
       options?: CallOptions): Promise<ApplyMoveResponse> {
    return this.applyMove(snapshot, text, extras, options);
  }

  /** The hand's score (provisional while the hand is played). */
  scoreHand(snapshot: Uint8Array, options?: CallOptions): Promise<ScoreHandResponse> {
    return this.call(CanastaEngine.method.scoreHand, create(ScoreHandRequestSchema, { snapshot }), options);
  }

  /** Deal the next hand once a hand is over. */
  nextDeal(snapshot: Uint8Array, extras: NextDealExtras = {},
           options?: CallOptions): Promise<NextDealResponse> {
    return this.call(CanastaEngine.method.nextDeal,
      create(NextDealRequestSchema, { snapshot, ...extras }), options);
  }

  /**
   * Seat views of a snapshot (`seat`: that seat's only; -1 the spectator's). Unset: every
   * seat's for the host, the token's seat's own, or the public one without a token.
   */
  view(snapshot: Uint8Array, seat?: number, options?: CallOptions): Promise<GetViewResponse> {
    return this.call(CanastaEngine.method.getView, create(GetViewRequestSchema, { snapshot, seat }), options);
  }

  /**
   * Start a game from a position in the text notation (`{ position, viewSeat }`); the answer
   * carries its `hostToken` and `seatTokens`.
   */
  importPosition(request: ImportPositionInit, options?: CallOptions): Promise<ImportPositionResponse> {
    return this.call(CanastaEngine.method.importPosition, request, options);
  }

  /** The whole position of a snapshot as text: it reveals every hand, so the host's token only. */
  exportPosition(snapshot: Uint8Array, options?: CallOptions): Promise<ExportPositionResponse> {
    return this.call(CanastaEngine.method.exportPosition,
      create(ExportPositionRequestSchema, { snapshot }), options);
  }

  /**
   * The game record (docs/records.md) of the moves the host kept (`record`, checked
   * against the snapshot; empty: a record starting at the snapshot): the whole record for
   * the host's token, a seat's own for its token, the public one for a spectator.
   */
  exportRecord(snapshot: Uint8Array, record: string = "", extras: ExportRecordExtras = {},
               options?: CallOptions): Promise<ExportRecordResponse> {
    return this.call(CanastaEngine.method.exportRecord,
      create(ExportRecordRequestSchema, { snapshot, record, ...extras }), options);
  }

  /**
   * A bot's legal move, not applied: for the seat whose move is due (host's token, or
   * `extras.seat`) or the token's own seat. Apply it with {@link applyMove}.
   */
  suggestMove(snapshot: Uint8Array, extras: SuggestMoveExtras = {},
              options?: CallOptions): Promise<SuggestMoveResponse> {
    return this.call(CanastaEngine.method.suggestMove,
      create(SuggestMoveRequestSchema, { snapshot, ...extras }), options);
  }
}
