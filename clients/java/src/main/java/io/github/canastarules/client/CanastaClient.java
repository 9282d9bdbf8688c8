package io.github.canastarules.client;

import com.google.protobuf.ByteString;
import io.github.canastarules.canasta.v1.ApplyMoveRequest;
import io.github.canastarules.canasta.v1.ApplyMoveResponse;
import io.github.canastarules.canasta.v1.CanastaEngineGrpc;
import io.github.canastarules.canasta.v1.DealRequest;
import io.github.canastarules.canasta.v1.DealResponse;
import io.github.canastarules.canasta.v1.ExportPositionRequest;
import io.github.canastarules.canasta.v1.ExportPositionResponse;
import io.github.canastarules.canasta.v1.ExportRecordRequest;
import io.github.canastarules.canasta.v1.ExportRecordResponse;
import io.github.canastarules.canasta.v1.GetViewRequest;
import io.github.canastarules.canasta.v1.GetViewResponse;
import io.github.canastarules.canasta.v1.ImportPositionRequest;
import io.github.canastarules.canasta.v1.ImportPositionResponse;
import io.github.canastarules.canasta.v1.LegalMovesRequest;
import io.github.canastarules.canasta.v1.LegalMovesResponse;
import io.github.canastarules.canasta.v1.ListVariantsRequest;
import io.github.canastarules.canasta.v1.ListVariantsResponse;
import io.github.canastarules.canasta.v1.Move;
import io.github.canastarules.canasta.v1.NextDealRequest;
import io.github.canastarules.canasta.v1.NextDealResponse;
import io.github.canastarules.canasta.v1.ScoreHandRequest;
import io.github.canastarules.canasta.v1.ScoreHandResponse;
import io.github.canastarules.canasta.v1.SuggestMoveRequest;
import io.github.canastarules.canasta.v1.SuggestMoveResponse;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The client of one canasta.v1 server over gRPC. Every call has a deadline (the client's
 * timeout, 10 s unless set) and throws {@link CanastaException} carrying the server's reason
 * code. Thread-safe; close it to close the channel it made.
 *
 * <p>A game's credentials come with its deal ({@code getHostToken()}, {@code
 * getSeatTokensList()}). The client sends its token ({@link #withToken}) as {@code
 * authorization: Bearer <token>} with every call; the overloads taking a {@code token} send
 * that one instead ({@code ""}: none, a spectator's call; {@code null}: the client's).
 *
 * <p>A client {@link #withRetries} sends a call that the server refused for load, saying when to
 * send it again ({@link CanastaException#getRetryAfter()}, as on {@code TOO_MANY_CALLS}), again
 * after that delay, up to that many times.
 */
public final class CanastaClient implements AutoCloseable {
  /** The deadline of each call unless set otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** The longest wait on a server's retry hint before a call is sent again. */
  public static final Duration MAX_RETRY_WAIT = Duration.ofSeconds(10);

  /**
   * The longest timeout a call is given (a week, in every SDK): a longer one is taken as this.
   * No call of the service takes near it; a timeout over about 292 years failed every call
   * with an {@link ArithmeticException} (its nanoseconds overflow a long).
   */
  public static final Duration MAX_TIMEOUT = Duration.ofDays(7);

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private static final SecureRandom SEEDS = new SecureRandom();

  private static final Pattern USERINFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)?[^/@]*@");
  private final CanastaEngineGrpc.CanastaEngineBlockingStub stub;
  private final ManagedChannel owned;
  private final Duration timeout;
  private final String token;
  private final int retries;
  private final String requestId;
  private final Consumer<String> requestIdListener;

  private CanastaClient(Channel channel, ManagedChannel owned, Duration timeout, String token,
      int retries) {
    this(channel, owned, timeout, token, retries, null, null);
  }

  private CanastaClient(Channel channel, ManagedChannel owned, Duration timeout, String token,
      int retries, String requestId, Consumer<String> requestIdListener) {
    this.stub = CanastaEngineGrpc.newBlockingStub(channel);
    this.owned = owned;
    this.timeout = timeout;
    this.token = token;
    this.retries = retries;
    this.requestId = requestId;
    this.requestIdListener = requestIdListener;
  }

  /** A plaintext client of {@code target} ({@code host:port}). */
  public static CanastaClient connect(String target) {
    return connect(target, DEFAULT_TIMEOUT);
  }

  /**
   * A plaintext client of {@code target} with the given per-call timeout.
   *
   * @throws NullPointerException naming the argument, if either is null (refused here, not
   *     at the first call)
   */
  public static CanastaClient connect(String target, Duration timeout) {
    Objects.requireNonNull(target, "target must not be null");
    required(timeout);
    String shown = withoutUserinfo(target);
    if (!shown.equals(target)) {
      throw new IllegalArgumentException("the target cannot carry a user or password (send the"
          + " game's token with withToken), not \"" + shown + "\"");
    }
    ManagedChannel channel = ManagedChannelBuilder.forTarget(target).usePlaintext().build();
    return new CanastaClient(channel, channel, timeout, null, 0);
  }

  /**
   * {@code target} with any {@code user:password@} before its authority shown as {@code ***@}
   * (unix socket paths aside), as every SDK does: grpc-java dropped one without a word, the
   * other SDKs' gRPC quoted it in every call's error.
   */
  private static String withoutUserinfo(String target) {
    if (target.startsWith("unix:") || target.startsWith("unix-abstract:")) {
      return target;
    }
    return USERINFO.matcher(target).replaceFirst("$1***@");
  }

  /** A client over a channel the caller owns (TLS, interceptors, ...) and closes. */
  public static CanastaClient of(Channel channel, Duration timeout) {
    Objects.requireNonNull(channel, "channel must not be null");
    return new CanastaClient(channel, null, required(timeout), null, 0);
  }

  /**
   * {@code timeout}, which a client must have: a null one would fail every call later with
   * a NullPointerException naming nothing.
   */
  private static Duration required(Duration timeout) {
    return Objects.requireNonNull(timeout, "timeout must not be null");
  }

  /**
   * The same client with another per-call timeout (sharing the channel).
   *
   * @throws NullPointerException if {@code timeout} is null
   */
  public CanastaClient withTimeout(Duration timeout) {
    return new CanastaClient(stub.getChannel(), null, required(timeout), token, retries, requestId,
        requestIdListener);
  }

  /**
   * The same client sending {@code token} with every call (sharing the channel: close the
   * client that made it): a game's host token, or one seat's token for that player.
   */
  public CanastaClient withToken(String token) {
    return new CanastaClient(stub.getChannel(), null, timeout, token, retries, requestId,
        requestIdListener);
  }

  /**
   * The same client (sharing the channel: close the client that made it) sending a call that
   * the server refused with a retry hint again after that delay (at most {@link
   * #MAX_RETRY_WAIT}), up to {@code retries} times. Every RPC is pure, so this is safe. The
   * call's timeout covers its retries: a wait that would pass it is not made, and an interrupt
   * ends a wait. 0, the default, throws the refusal at once; so does a refusal without a hint.
   */
  public CanastaClient withRetries(int retries) {
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be 0 or more, not " + retries);
    }
    return new CanastaClient(stub.getChannel(), null, timeout, token, retries, requestId,
        requestIdListener);
  }

  /**
   * The same client (sharing the channel: close the client that made it) sending {@code
   * requestId} as the {@code x-request-id} of its calls: the server echoes it, and puts it in
   * its log lines of the call and in an error's {@code request_id}. {@code null}: the server
   * makes one up for each call.
   */
  public CanastaClient withRequestId(String requestId) {
    return new CanastaClient(stub.getChannel(), null, timeout, token, retries, requestId,
        requestIdListener);
  }

  /**
   * The same client (sharing the channel: close the client that made it) handing {@code
   * listener} the request id the server echoed for each call (its {@code x-request-id}), when
   * it answered and when it refused (then also {@link CanastaException#getRequestId()}); once
   * per attempt with retries. {@code null}: none.
   */
  public CanastaClient withRequestIdListener(Consumer<String> listener) {
    return new CanastaClient(stub.getChannel(), null, timeout, token, retries, requestId,
        listener);
  }

  /** The request id sent with every call, or {@code null}. */
  public String getRequestId() {
    return requestId;
  }

  /** How many times a call refused with a retry hint is sent again. */
  public int getRetries() {
    return retries;
  }

  /** The per-call timeout. */
  public Duration getTimeout() {
    return timeout;
  }

  /** The credential sent with every call, or {@code null}. */
  public String getToken() {
    return token;
  }

  private <T> T call(Function<CanastaEngineGrpc.CanastaEngineBlockingStub, T> rpc) {
    return call(null, rpc);
  }

  private <T> T call(String callToken, Function<CanastaEngineGrpc.CanastaEngineBlockingStub, T> rpc) {
    String credential = callToken != null ? callToken : token;
    Duration given = timeout.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT : timeout;
    Deadline deadline = Deadline.after(given.toNanos(), TimeUnit.NANOSECONDS);
    CanastaEngineGrpc.CanastaEngineBlockingStub s = stub.withDeadline(deadline);
    // one set of headers, so one credential: the call's, else the client's
    Metadata headers = new Metadata();
    if (credential != null && !credential.isEmpty()) {
      checkSendable(credential, "the token", 0x21, "visible ASCII");
      headers.put(AUTHORIZATION, "Bearer " + credential);
    }
    if (requestId != null && !requestId.isEmpty()) {
      checkSendable(requestId, "the request id", 0x20, "printable ASCII");
      headers.put(CanastaException.REQUEST_ID, requestId);
    }
    if (headers.keys().size() > 0) {
      s = s.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }
    AtomicReference<Metadata> trailers = new AtomicReference<>();
    if (requestIdListener != null) {
      s = s.withInterceptors(
          MetadataUtils.newCaptureMetadataInterceptor(new AtomicReference<>(), trailers));
    }
    for (int attempt = 0; ; attempt++) {
      try {
        T answer = rpc.apply(s);
        Metadata got = trailers.getAndSet(null);
        report(got == null ? null : got.get(CanastaException.REQUEST_ID));
        return answer;
      } catch (StatusRuntimeException e) {
        CanastaException refusal = CanastaException.from(e);
        report(refusal.getRequestId().orElse(null));
        if (!waited(refusal, attempt, deadline)) {
          throw refusal;
        }
      }
    }
  }

  /** Hands the server's request id of a call, when it sent one, to the listener. */
  private void report(String id) {
    if (requestIdListener != null && id != null && !id.isEmpty()) {
      requestIdListener.accept(id);
    }
  }

  /**
   * Refuses a header value with a character below {@code lowest} or past {@code ~}, before
   * anything is sent, as every SDK does. A token is visible ASCII (a space, as around a token
   * read from a file, a control character such as a newline, or one outside ASCII is refused);
   * a request id may hold spaces. grpc-java would drop a header with a newline, with a logged
   * warning, and send the call without it (without a credential: a spectator's call), send a
   * character outside ASCII as {@code ?}, and the server would strip a token's surrounding
   * spaces. The value itself is not in the message.
   */
  private static void checkSendable(String value, String what, int lowest, String allowed) {
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      if (ch < lowest || ch > 0x7e) {
        String message = what + " cannot be sent: its character " + (i + 1) + " (U+"
            + String.format("%04X", (int) ch) + ") is not " + allowed;
        throw new CanastaException(Status.Code.INTERNAL, message, "", "", new LinkedHashMap<>(),
            new ArrayList<>(), null, null, null);
      }
    }
  }

  /**
   * Whether {@code refusal} is sent again: the server said when, a retry is left and the wait
   * ends before the call's deadline (then it has waited).
   */
  private boolean waited(CanastaException refusal, int attempt, Deadline deadline) {
    Optional<Duration> hint = refusal.getRetryAfter();
    if (hint.isEmpty() || attempt >= retries) {
      return false;
    }
    Duration wait = hint.get().compareTo(MAX_RETRY_WAIT) > 0 ? MAX_RETRY_WAIT : hint.get();
    if (deadline.timeRemaining(TimeUnit.NANOSECONDS) <= wait.toNanos()) {
      return false;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(wait.toNanos());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The games this server plays, with their rule options. */
  public ListVariantsResponse listVariants() {
    return call(s -> s.listVariants(ListVariantsRequest.getDefaultInstance()));
  }

  /**
   * Deal the first hand of a new game; the answer carries its host and seat tokens. The seed
   * decides the shuffle and every later hand (with a deck too: it still deals the hands sent
   * without one and May I?'s reshuffles). A request without one (seed 0) is sent with a {@link
   * #randomSeed()}, as in every SDK: on the wire 0 is a seed like any other, so every game dealt
   * without one would be the same deal, which anybody can replay.
   */
  public DealResponse deal(DealRequest request) {
    DealRequest seeded =
        request.getSeed() != 0 ? request : request.toBuilder().setSeed(randomSeed()).build();
    return call(s -> s.deal(seeded));
  }

  /** Deal the first hand of a new game of {@code variant} for {@code players}, with a random seed. */
  public DealResponse deal(String variant, int players) {
    return deal(variant, players, 0);
  }

  /**
   * Deal the first hand of a new game of {@code variant} for {@code players} with {@code seed}
   * (an unsigned 64-bit number; 0: a random one).
   */
  public DealResponse deal(String variant, int players, long seed) {
    return deal(DealRequest.newBuilder().setVariant(variant).setPlayers(players).setSeed(seed).build());
  }

  /**
   * A random 64-bit deal seed from {@link SecureRandom}: what {@link #deal(DealRequest)} sends
   * for a request without one. Pick one with it to keep a game's seed on the table's side.
   */
  public static long randomSeed() {
    return SEEDS.nextLong();
  }

  /** The legal moves of the seat whose move is due (host), or of the token's seat when it may act. */
  public LegalMovesResponse legalMoves(ByteString snapshot) {
    return legalMoves(snapshot, null);
  }

  /** {@link #legalMoves(ByteString)} with this call's {@code token}. */
  public LegalMovesResponse legalMoves(ByteString snapshot, String token) {
    return legalMoves(LegalMovesRequest.newBuilder().setSnapshot(snapshot).build(), token);
  }

  /**
   * One page of the legal moves: at most {@code setPageSize} moves (0: the server's maximum,
   * 1,000); the answer's {@code getNextPageToken()}, set as {@code setPageToken}, continues.
   */
  public LegalMovesResponse legalMoves(LegalMovesRequest request) {
    return legalMoves(request, null);
  }

  /** {@link #legalMoves(LegalMovesRequest)} with this call's {@code token}. */
  public LegalMovesResponse legalMoves(LegalMovesRequest request, String token) {
    return call(token, s -> s.legalMoves(request));
  }

  /** Every legal move of {@link #legalMoves(ByteString)}, its pages followed to the end. */
  public List<Move> allLegalMoves(ByteString snapshot) {
    return allLegalMoves(snapshot, null);
  }

  /** {@link #allLegalMoves(ByteString)} with this call's {@code token}. */
  public List<Move> allLegalMoves(ByteString snapshot, String token) {
    List<Move> moves = new ArrayList<>();
    String pageToken = "";
    do {
      LegalMovesResponse page = legalMoves(
          LegalMovesRequest.newBuilder().setSnapshot(snapshot).setPageToken(pageToken).build(), token);
      moves.addAll(page.getMovesList());
      pageToken = page.getNextPageToken();
    } while (!pageToken.isEmpty());
    return moves;
  }

  /**
   * Apply one move (expected seq and game id, seat and view seat set on the request): the host
   * token moves for any seat, a seat token for its seat only.
   */
  public ApplyMoveResponse applyMove(ApplyMoveRequest request) {
    return applyMove(request, null);
  }

  /** {@link #applyMove(ApplyMoveRequest)} with this call's {@code token}. */
  public ApplyMoveResponse applyMove(ApplyMoveRequest request, String token) {
    return call(token, s -> s.applyMove(request));
  }

  /** Apply one move, such as one {@link #legalMoves} listed. */
  public ApplyMoveResponse applyMove(ByteString snapshot, Move move) {
    return applyMove(snapshot, move, null);
  }

  /** {@link #applyMove(ByteString, Move)} with this call's {@code token}. */
  public ApplyMoveResponse applyMove(ByteString snapshot, Move move, String token) {
    return applyMove(ApplyMoveRequest.newBuilder().setSnapshot(snapshot).setMove(move).build(), token);
  }

  /** Play a move given in its text form, such as {@code "discard 4D"}. */
  public ApplyMoveResponse play(ByteString snapshot, String text) {
    return applyMove(snapshot, move(text));
  }

  /** {@link #play(ByteString, String)} with this call's {@code token}. */
  public ApplyMoveResponse play(ByteString snapshot, String text, String token) {
    return applyMove(snapshot, move(text), token);
  }

  /** The hand's score (provisional while the hand is played). */
  public ScoreHandResponse scoreHand(ByteString snapshot) {
    return scoreHand(snapshot, null);
  }

  /** {@link #scoreHand(ByteString)} with this call's {@code token}. */
  public ScoreHandResponse scoreHand(ByteString snapshot, String token) {
    return call(token, s -> s.scoreHand(ScoreHandRequest.newBuilder().setSnapshot(snapshot).build()));
  }

  /** Deal the next hand once a hand is over (the host's answer carries the tokens). */
  public NextDealResponse nextDeal(NextDealRequest request) {
    return nextDeal(request, null);
  }

  /** {@link #nextDeal(NextDealRequest)} with this call's {@code token}. */
  public NextDealResponse nextDeal(NextDealRequest request, String token) {
    return call(token, s -> s.nextDeal(request));
  }

  /** Deal the next hand once a hand is over. */
  public NextDealResponse nextDeal(ByteString snapshot) {
    return nextDeal(snapshot, null);
  }

  /** {@link #nextDeal(ByteString)} with this call's {@code token}. */
  public NextDealResponse nextDeal(ByteString snapshot, String token) {
    return nextDeal(NextDealRequest.newBuilder().setSnapshot(snapshot).build(), token);
  }

  /**
   * The views of a snapshot the credential may see: every seat's for the host token, its own
   * seat's for a seat token, the public one without a token.
   */
  public GetViewResponse view(ByteString snapshot) {
    return view(snapshot, null);
  }

  /** {@link #view(ByteString)} with this call's {@code token}. */
  public GetViewResponse view(ByteString snapshot, String token) {
    return call(token, s -> s.getView(GetViewRequest.newBuilder().setSnapshot(snapshot).build()));
  }

  /** One seat's view of a snapshot ({@code -1}: the spectator's). */
  public GetViewResponse view(ByteString snapshot, int seat) {
    return view(snapshot, seat, null);
  }

  /** {@link #view(ByteString, int)} with this call's {@code token}. */
  public GetViewResponse view(ByteString snapshot, int seat, String token) {
    return call(token, s -> s.getView(GetViewRequest.newBuilder().setSnapshot(snapshot).setSeat(seat).build()));
  }

  /** Start a game from a position in the text notation; the answer carries its tokens. */
  public ImportPositionResponse importPosition(ImportPositionRequest request) {
    return call(s -> s.importPosition(request));
  }

  /** Start a game from a position in the text notation (docs/notation.md). */
  public ImportPositionResponse importPosition(String position) {
    return importPosition(ImportPositionRequest.newBuilder().setPosition(position).build());
  }

  /** The whole position of a snapshot as text: it reveals every hand, so the host token only. */
  public ExportPositionResponse exportPosition(ByteString snapshot) {
    return exportPosition(snapshot, null);
  }

  /** {@link #exportPosition(ByteString)} with this call's {@code token}. */
  public ExportPositionResponse exportPosition(ByteString snapshot, String token) {
    return call(token, s -> s.exportPosition(
        ExportPositionRequest.newBuilder().setSnapshot(snapshot).build()));
  }

  /**
   * The game record (docs/records.md) of the moves the host kept ({@code setRecord}, checked
   * against the snapshot; empty: a record starting at the snapshot): the whole record for the
   * host token ({@code setViewSeat}: a seat's, -1 the public one), a seat's own for its
   * token, the public one for a spectator.
   */
  public ExportRecordResponse exportRecord(ExportRecordRequest request) {
    return exportRecord(request, null);
  }

  /** {@link #exportRecord(ExportRecordRequest)} with this call's {@code token}. */
  public ExportRecordResponse exportRecord(ExportRecordRequest request, String token) {
    return call(token, s -> s.exportRecord(request));
  }

  /**
   * A bot's legal move, not applied: for the seat whose move is due (host token, or {@code
   * setSeat} on the request) or the token's own seat. The same snapshot, level and seed give
   * the same move.
   */
  public SuggestMoveResponse suggestMove(SuggestMoveRequest request) {
    return suggestMove(request, null);
  }

  /** {@link #suggestMove(SuggestMoveRequest)} with this call's {@code token}. */
  public SuggestMoveResponse suggestMove(SuggestMoveRequest request, String token) {
    return call(token, s -> s.suggestMove(request));
  }

  /**
   * A bot's move at {@code level} ({@code "greedy"}, {@code "random"} or {@code "expert"}) with
   * {@code seed}.
   */
  public SuggestMoveResponse suggestMove(ByteString snapshot, String level, long seed) {
    return suggestMove(snapshot, level, seed, null);
  }

  /** {@link #suggestMove(ByteString, String, long)} with this call's {@code token}. */
  public SuggestMoveResponse suggestMove(ByteString snapshot, String level, long seed,
      String token) {
    return suggestMove(
        SuggestMoveRequest.newBuilder().setSnapshot(snapshot).setLevel(level).setSeed(seed).build(),
        token);
  }

  /** A move from its text form. */
  public static Move move(String text) {
    return Move.newBuilder().setText(text).build();
  }

  /** The first listed move that is not "undo" or "ask": echoing it ends a hand quickly. */
  public static Move firstProgressMove(List<Move> moves) {
    for (Move m : moves) {
      if (!m.getText().equals("undo") && !m.getText().equals("ask")) {
        return m;
      }
    }
    throw new IllegalArgumentException("no move to play");
  }

  /** Close the channel this client made (a no-op for {@link #of}). */
  @Override
  public void close() {
    if (owned != null) {
      owned.shutdown();
      try {
        if (!owned.awaitTermination(5, TimeUnit.SECONDS)) {
          owned.shutdownNow();
        }
      } catch (InterruptedException e) {
        owned.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}
