package io.github.canastarules.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.DebugFormat;
import com.google.protobuf.MessageOrBuilder;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.github.canastarules.canasta.v1.ApplyMoveRequest;
import io.github.canastarules.canasta.v1.ApplyMoveResponse;
import io.github.canastarules.canasta.v1.DealRequest;
import io.github.canastarules.canasta.v1.DealResponse;
import io.github.canastarules.canasta.v1.EventType;
import io.github.canastarules.canasta.v1.ExportRecordRequest;
import io.github.canastarules.canasta.v1.GetViewResponse;
import io.github.canastarules.canasta.v1.ImportPositionResponse;
import io.github.canastarules.canasta.v1.LegalMovesRequest;
import io.github.canastarules.canasta.v1.LegalMovesResponse;
import io.github.canastarules.canasta.v1.Move;
import io.github.canastarules.canasta.v1.NextDealRequest;
import io.github.canastarules.canasta.v1.NextDealResponse;
import io.github.canastarules.canasta.v1.ScoreBreakdown;
import io.github.canastarules.canasta.v1.ScoreHandResponse;
import io.github.canastarules.canasta.v1.SeatView;
import io.github.canastarules.canasta.v1.SideScore;
import io.github.canastarules.canasta.v1.SuggestMoveRequest;
import io.github.canastarules.canasta.v1.SuggestMoveResponse;
import io.grpc.ConnectivityState;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.HandlerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Java SDK against a live server over a real socket ({@code CANASTA_GRPC_TARGET}). */
class CanastaClientTest {
  private static final int MAX_MOVES = 2000;
  private static final List<String> ILLEGAL = List.of("WRONG_PHASE", "NOT_LISTED", "CARDS_NOT_IN_HAND");
  private static String target;
  private static CanastaClient client;

  @BeforeAll
  static void connect() {
    target = System.getenv("CANASTA_GRPC_TARGET");
    assertNotNull(target, "set CANASTA_GRPC_TARGET=host:port of a running server (make sdk-test does)");
    client = CanastaClient.connect(target, Duration.ofSeconds(10));
  }

  @AfterAll
  static void close() {
    client.close();
  }

  private static Path sdkDir() {
    String dir = System.getenv("CANASTA_SDK_DIR");
    return Path.of(dir == null ? "." : dir);
  }

  @Test
  void playsAWholeClassicFourHandedHand() {
    DealResponse deal = client.deal("classic", 4, 11);
    assertEquals(0, deal.getHeader().getSeq());
    assertTrue(deal.getHostToken().startsWith("ct1.host."), deal.getHostToken());
    assertEquals(List.of("s0", "s1", "s2", "s3"), deal.getSeatTokensList().stream()
        .map(t -> t.split("\\.")[1]).collect(Collectors.toList()));
    CanastaClient host = client.withToken(deal.getHostToken());
    String gameId = deal.getHeader().getGameId();
    ByteString snapshot = deal.getSnapshot();
    long seq = 0;
    ApplyMoveResponse played = null;
    for (int i = 0; i < MAX_MOVES; i++) {
      LegalMovesResponse legal = host.legalMoves(snapshot);
      Move chosen = CanastaClient.firstProgressMove(legal.getMovesList());
      played = host.applyMove(ApplyMoveRequest.newBuilder().setSnapshot(snapshot).setMove(chosen)
          .setExpectedSeq(seq).setSeat(legal.getSeat()).setExpectedGameId(gameId).build());
      assertEquals(chosen.getText(), played.getMove().getText());
      assertEquals(seq + 1, played.getHeader().getSeq());
      assertEquals(deal.getHeader().getGameId(), played.getHeader().getGameId());
      snapshot = played.getSnapshot();
      seq++;
      if (played.getHandOver()) {
        break;
      }
    }
    assertNotNull(played);
    assertTrue(played.getHandOver(), "the hand ended");
    ScoreHandResponse score = host.scoreHand(snapshot);
    assertTrue(score.getHandOver());
    assertEquals(2, score.getSidesCount());
    for (SideScore side : score.getSidesList()) {
      ScoreBreakdown b = side.getBreakdown();
      assertEquals(side.getTotal(), b.getBase() + b.getCanastaBonus() + b.getGoingOut()
          + b.getRedThreePoints() - b.getInHand() - b.getPenalties());
    }
    if (!played.getGameOver()) {
      NextDealResponse next = host.nextDeal(NextDealRequest.newBuilder().setSnapshot(snapshot)
          .setExpectedSeq(seq).setExpectedGameId(gameId).build());
      assertEquals(seq + 1, next.getHeader().getSeq());
      assertTrue(next.getEventsList().stream().anyMatch(e -> e.getType() == EventType.EVENT_TYPE_HAND_DEALT));
      // the same game, the same credentials (in the host's answer only)
      assertEquals(deal.getHostToken(), next.getHostToken());
      assertEquals(deal.getSeatTokensList(), next.getSeatTokensList());
    }
  }

  @Test
  void viewsASeatAndPlaysAMoveFromItsText() {
    DealResponse deal = client.deal(DealRequest.newBuilder().setVariant("classic").setPlayers(4)
        .setSeed(3).setViewSeat(0).build());
    assertEquals(1, deal.getViewsCount());
    GetViewResponse mine = client.view(deal.getSnapshot(), 0, deal.getHostToken());
    assertEquals(1, mine.getViewsCount());
    assertEquals(11, mine.getViews(0).getHandCount());
    ApplyMoveResponse played = client.play(deal.getSnapshot(), "draw", deal.getHostToken());
    assertEquals("draw", played.getMove().getText());
    assertTrue(played.getMove().hasDraw());
  }

  @Test
  void tamperedSnapshotIsSnapshotInvalid() {
    DealResponse deal = client.deal("classic", 4, 5);
    byte[] bytes = deal.getSnapshot().toByteArray();
    bytes[bytes.length / 2] ^= 1;
    CanastaException e = assertThrows(CanastaException.class,
        () -> client.legalMoves(ByteString.copyFrom(bytes), deal.getHostToken()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getCode());
    assertEquals("SNAPSHOT_INVALID", e.getReason());
  }

  @Test
  void illegalMoveIsARuleViolation() {
    DealResponse deal = client.deal("classic", 4, 5);
    CanastaException e = assertThrows(CanastaException.class,
        () -> client.play(deal.getSnapshot(), "discard 4D", deal.getHostToken()));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getCode());
    assertTrue(e.isRuleViolation());
    assertTrue(ILLEGAL.contains(e.getReason()), e.getReason());
    assertFalse(e.getServerMessage().isEmpty());
  }

  @Test
  void staleSnapshotAndBadRequest() {
    DealResponse deal = client.deal("classic", 4, 5);
    CanastaException stale = assertThrows(CanastaException.class, () -> client.applyMove(
        ApplyMoveRequest.newBuilder().setSnapshot(deal.getSnapshot()).setMove(CanastaClient.move("draw"))
            .setExpectedSeq(7).build(), deal.getHostToken()));
    assertEquals(Status.Code.ABORTED, stale.getCode());
    assertEquals("SNAPSHOT_STALE", stale.getReason());
    CanastaException bad = assertThrows(CanastaException.class, () -> client.deal("classic", 9, 1));
    assertEquals("BAD_PLAYER_COUNT", bad.getReason());
    assertEquals("players", bad.getFieldViolations().get(0).getField());
  }

  /** Request and answer bytes as they are. */
  private static final MethodDescriptor.Marshaller<byte[]> RAW = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** A started server answering every method with {@code handler}, on raw bytes. */
  private static Server serving(ServerCalls.UnaryMethod<byte[], byte[]> handler,
      ServerInterceptor... interceptors) throws IOException {
    HandlerRegistry anyMethod = new HandlerRegistry() {
      @Override
      public ServerMethodDefinition<?, ?> lookupMethod(String method, String authority) {
        MethodDescriptor<byte[], byte[]> descriptor = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName(method)
            .setRequestMarshaller(RAW).setResponseMarshaller(RAW).build();
        return ServerMethodDefinition.create(descriptor, ServerCalls.asyncUnaryCall(handler));
      }
    };
    ServerBuilder<?> builder = ServerBuilder.forPort(0).fallbackHandlerRegistry(anyMethod);
    for (ServerInterceptor interceptor : interceptors) {
      builder.intercept(interceptor);
    }
    return builder.build().start();
  }

  @Test
  void deadlinesAreTypedErrors() throws Exception {
    // a server that refuses the first call (the channel is then connected) and holds every
    // later one unanswered, noting the deadline it carries: the client's timeout is what
    // the server sees, and it ends the call
    CompletableFuture<Long> seen = new CompletableFuture<>();
    AtomicInteger calls = new AtomicInteger();
    Server silent = serving((byte[] request, StreamObserver<byte[]> answer) -> {
      if (calls.getAndIncrement() == 0) {
        answer.onError(Status.UNIMPLEMENTED.asRuntimeException());
        return;
      }
      Deadline deadline = Context.current().getDeadline();
      seen.complete(deadline == null ? -1L : deadline.timeRemaining(TimeUnit.MILLISECONDS));
    });
    try (CanastaClient connected = CanastaClient.connect("127.0.0.1:" + silent.getPort(),
        Duration.ofSeconds(30))) {
      CanastaException first = assertThrows(CanastaException.class, connected::listVariants);
      assertEquals(Status.Code.UNIMPLEMENTED, first.getCode());
      CanastaClient slow = connected.withTimeout(Duration.ofMillis(300));
      CanastaException e = assertThrows(CanastaException.class, slow::listVariants);
      assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getCode());
      assertEquals("DEADLINE_EXCEEDED", e.getReason());
      long left = seen.get(30, TimeUnit.SECONDS); // set when the call arrived
      // the 300 ms asked, sent rounded up to its unit and dated on arrival
      assertTrue(left > 0 && left <= 310, "the server saw " + left + " ms left, not about 300");
    } finally {
      silent.shutdownNow();
    }
  }

  @Test
  void unreachableServerIsNamedWithWhy() {
    // "UNAVAILABLE -: io exception" alone tells a newcomer neither the address nor the cause
    try (CanastaClient dead = CanastaClient.connect("127.0.0.1:1", Duration.ofSeconds(3))) {
      CanastaException e = assertThrows(CanastaException.class, dead::listVariants);
      assertTrue(e.getMessage().contains("Connection refused")
          && e.getMessage().contains("127.0.0.1:1"), e.getMessage());
    }
  }

  @Test
  void aTargetWithUserinfoIsRefusedWithoutShowingIt() {
    // as in every SDK (grpc-go and Python's grpc quoted it in every call's error; grpc-java
    // dropped it without a word)
    for (String[] target : new String[][] {
        {"user:PASS-SECRET@127.0.0.1:1", "\"***@127.0.0.1:1\""},
        {"dns://PASS-SECRET@127.0.0.1:53/localhost:1", "\"dns://***@127.0.0.1:53/localhost:1\""}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CanastaClient.connect(target[0], Duration.ofSeconds(1)).close(), target[0]);
      assertTrue(e.getMessage().contains("cannot carry a user or password")
          && e.getMessage().contains(target[1]) && !e.getMessage().contains("PASS-SECRET"),
          e.getMessage());
    }
  }

  @Test
  void aTimeoutOverMaxTimeoutIsTakenAsAWeek() {
    // as in every SDK: one over about 292 years failed every call with an ArithmeticException
    for (Duration timeout : List.of(Duration.ofDays(400L * 366), Duration.ofSeconds(Long.MAX_VALUE))) {
      assertTrue(client.withTimeout(timeout).listVariants().getVariantsCount() > 0);
    }
  }

  @Test
  void aNullTargetChannelOrTimeoutIsRefusedAtOnceNamingIt() {
    // a null timeout was taken, and every call then failed with a NullPointerException
    // naming nothing
    NullPointerException e = assertThrows(NullPointerException.class,
        () -> CanastaClient.connect("127.0.0.1:1", null).close());
    assertEquals("timeout must not be null", e.getMessage());
    e = assertThrows(NullPointerException.class, () -> CanastaClient.connect(null).close());
    assertEquals("target must not be null", e.getMessage());
    ManagedChannel channel = ManagedChannelBuilder.forTarget("127.0.0.1:1").usePlaintext().build();
    try (CanastaClient client = CanastaClient.of(channel, Duration.ofSeconds(1))) {
      e = assertThrows(NullPointerException.class, () -> client.withTimeout(null));
      assertEquals("timeout must not be null", e.getMessage());
      e = assertThrows(NullPointerException.class, () -> CanastaClient.of(channel, null));
      assertEquals("timeout must not be null", e.getMessage());
      e = assertThrows(NullPointerException.class,
          () -> CanastaClient.of(null, Duration.ofSeconds(1)));
      assertEquals("channel must not be null", e.getMessage());
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void unreachableServerIsUnavailable() {
    try (CanastaClient dead = CanastaClient.connect("127.0.0.1:1", Duration.ofSeconds(3))) {
      CanastaException e = assertThrows(CanastaException.class, dead::listVariants);
      assertEquals(Status.Code.UNAVAILABLE, e.getCode());
    }
  }

  @Test
  void aPeerThatSpeaksNoGrpcIsUnavailable() throws Exception {
    // an HTTP/1.1 server and a port answering garbage: UNAVAILABLE, as in the other SDKs,
    // not grpc-java's INTERNAL "http2 exception"
    for (String answer : List.of(
        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 5\r\n\r\nhello",
        "HELLO, not gRPC\r\n")) {
      try (java.net.ServerSocket peer = new java.net.ServerSocket(0, 50,
          java.net.InetAddress.getLoopbackAddress())) {
        Thread serving = new Thread(() -> {
          while (!peer.isClosed()) {
            try (java.net.Socket s = peer.accept()) {
              s.getInputStream().read(new byte[64]);
              s.getOutputStream().write(answer.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
              s.getOutputStream().flush();
              Thread.sleep(200);
            } catch (IOException | InterruptedException ignored) {
              // the test closed the socket
            }
          }
        });
        serving.setDaemon(true);
        serving.start();
        try (CanastaClient odd = CanastaClient.connect("127.0.0.1:" + peer.getLocalPort(),
            Duration.ofSeconds(5))) {
          CanastaException e = assertThrows(CanastaException.class, odd::listVariants);
          assertEquals(Status.Code.UNAVAILABLE, e.getCode(), e.getMessage());
          assertEquals("", e.getReason());
        }
      }
    }
  }

  // ---- the server's retry hint (google.rpc.RetryInfo), decoded without a server ----------

  /** A RESOURCE_EXHAUSTED TOO_MANY_CALLS refusal as the server sends it, with its details. */
  private static StatusRuntimeException tooManyCalls(RetryInfo retry) {
    com.google.rpc.Status.Builder status = com.google.rpc.Status.newBuilder()
        .setCode(Code.RESOURCE_EXHAUSTED_VALUE)
        .setMessage("the server is running 256 calls already: retry later")
        .addDetails(Any.pack(ErrorInfo.newBuilder().setReason("TOO_MANY_CALLS")
            .setDomain("canasta.v1").putMetadata("limit", "256").build()));
    if (retry != null) {
      status.addDetails(Any.pack(retry));
    }
    return StatusProto.toStatusRuntimeException(status.build());
  }

  private static RetryInfo retryAfter(long seconds, int nanos) {
    return RetryInfo.newBuilder().setRetryDelay(com.google.protobuf.Duration.newBuilder()
        .setSeconds(seconds).setNanos(nanos)).build();
  }

  @Test
  void retryInfoOfOneSecondIsTheRetryAfter() {
    CanastaException e = CanastaException.from(tooManyCalls(retryAfter(1, 0)));
    assertEquals(Optional.of(Duration.ofSeconds(1)), e.getRetryAfter());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getCode());
    assertEquals("TOO_MANY_CALLS", e.getReason());
    assertEquals("256", e.getMetadata().get("limit"));
  }

  @Test
  void retryInfoKeepsItsNanos() {
    CanastaException e = CanastaException.from(tooManyCalls(retryAfter(1, 500_000_000)));
    assertEquals(Optional.of(Duration.ofMillis(1500)), e.getRetryAfter());
    assertEquals("TOO_MANY_CALLS", e.getReason());
  }

  @Test
  void noRetryInfoIsNoRetryAfter() {
    CanastaException e = CanastaException.from(tooManyCalls(null));
    assertEquals(Optional.empty(), e.getRetryAfter());
    assertEquals("TOO_MANY_CALLS", e.getReason());
    assertEquals(Optional.empty(),
        CanastaException.from(Status.UNAVAILABLE.asRuntimeException()).getRetryAfter());
  }

  @Test
  void aNegativeRetryInfoIsNoRetryAfter() {
    // malformed: as in every SDK no hint, never a hint of 0 s (which would retry at once)
    for (RetryInfo negative : List.of(retryAfter(-1, 0), retryAfter(0, -1_000_000))) {
      CanastaException e = CanastaException.from(tooManyCalls(negative));
      assertEquals(Optional.empty(), e.getRetryAfter());
      assertEquals("TOO_MANY_CALLS", e.getReason());
    }
  }

  @Test
  void aStatusDetailsTrailerThatDoesNotParseOrMatchIsStillACanastaException() {
    // a proxy, or a broken server, may send a grpc-status-details-bin that does not parse, or
    // whose code is not the call's: the failure is still a CanastaException with the call's code
    Metadata.Key<byte[]> details =
        Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);
    Metadata malformed = new Metadata();
    malformed.put(details, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
    CanastaException e = CanastaException.from(
        Status.UNAVAILABLE.withDescription("through a proxy").asRuntimeException(malformed));
    assertEquals(Status.Code.UNAVAILABLE, e.getCode());
    assertEquals("", e.getReason());
    assertEquals("through a proxy", e.getServerMessage());
    Metadata mismatched = new Metadata();
    mismatched.put(details, com.google.rpc.Status.newBuilder().setCode(Code.RESOURCE_EXHAUSTED_VALUE)
        .addDetails(Any.pack(ErrorInfo.newBuilder().setReason("TOO_MANY_CALLS").build()))
        .build().toByteArray());
    e = CanastaException.from(Status.UNAVAILABLE.asRuntimeException(mismatched));
    assertEquals(Status.Code.UNAVAILABLE, e.getCode());
  }

  // ---- retries on the hint, against a server that is busy at first ---------------------

  /** Arrival times (ms) of the calls at a server that refuses the first few. */
  private static final class BusyAtFirst implements AutoCloseable {
    final List<Long> arrived = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<ManagedChannel> channels = new java.util.ArrayList<>();
    final Server server;

    BusyAtFirst(int refusals, RetryInfo hint) throws IOException {
      server = serving((byte[] request, StreamObserver<byte[]> answer) -> {
        arrived.add(System.nanoTime() / 1_000_000);
        if (arrived.size() <= refusals) {
          answer.onError(tooManyCalls(hint));
        } else {
          answer.onNext(new byte[0]);
          answer.onCompleted();
        }
      });
    }

    /** A client over a channel already connected, so that timings start with the first call. */
    CanastaClient client(Duration timeout) throws InterruptedException {
      ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.getPort())
          .usePlaintext().build();
      channels.add(channel);
      long until = System.nanoTime() + 10_000_000_000L;
      while (channel.getState(true) != ConnectivityState.READY) {
        assertTrue(System.nanoTime() < until, "no connection to the fake server");
        Thread.sleep(5);
      }
      return CanastaClient.of(channel, timeout);
    }

    void assertGapsAtLeast(long ms) {
      for (int i = 1; i < arrived.size(); i++) {
        long gap = arrived.get(i) - arrived.get(i - 1);
        assertTrue(gap >= ms, "call " + (i + 1) + " came " + gap + " ms after the refusal");
      }
    }

    @Override
    public void close() {
      channels.forEach(ManagedChannel::shutdownNow);
      server.shutdownNow();
    }
  }

  @Test
  void retriesSendACallRefusedForLoadAgain() throws Exception {
    // two refusals, two retries: answered on the third call, each after the hint's delay;
    // withToken's copy keeps the retries
    try (BusyAtFirst busy = new BusyAtFirst(2, retryAfter(0, 200_000_000));
         CanastaClient made = busy.client(Duration.ofSeconds(10))) {
      CanastaClient seat = made.withRetries(2).withToken("a-seat-token");
      assertEquals(2, seat.getRetries());
      assertEquals(0, seat.listVariants().getVariantsCount());
      assertEquals(3, busy.arrived.size());
      busy.assertGapsAtLeast(190);
    }
    // three refusals, two retries: the third refusal is thrown
    try (BusyAtFirst busy = new BusyAtFirst(3, retryAfter(0, 200_000_000));
         CanastaClient made = busy.client(Duration.ofSeconds(10))) {
      CanastaException e = assertThrows(CanastaException.class, made.withRetries(2)::listVariants);
      assertEquals("TOO_MANY_CALLS", e.getReason());
      assertEquals(3, busy.arrived.size());
    }
  }

  @Test
  void withoutRetriesOrAHintTheRefusalComesAtOnce() throws Exception {
    try (BusyAtFirst busy = new BusyAtFirst(5, retryAfter(0, 200_000_000));
         CanastaClient made = busy.client(Duration.ofSeconds(10))) {
      CanastaException e = assertThrows(CanastaException.class, made::listVariants);
      assertEquals(Optional.of(Duration.ofMillis(200)), e.getRetryAfter());
      assertEquals(1, busy.arrived.size());
    }
    try (BusyAtFirst busy = new BusyAtFirst(5, null);
         CanastaClient made = busy.client(Duration.ofSeconds(10))) {
      CanastaException e = assertThrows(CanastaException.class, made.withRetries(3)::listVariants);
      assertEquals(Optional.empty(), e.getRetryAfter());
      assertEquals(1, busy.arrived.size());
      assertThrows(IllegalArgumentException.class, () -> made.withRetries(-1));
    }
    // a negative hint is no hint: not sent again at once
    try (BusyAtFirst busy = new BusyAtFirst(5, retryAfter(-1, 0));
         CanastaClient made = busy.client(Duration.ofSeconds(10))) {
      CanastaException e = assertThrows(CanastaException.class, made.withRetries(3)::listVariants);
      assertEquals(Optional.empty(), e.getRetryAfter());
      assertEquals(1, busy.arrived.size());
    }
  }

  @Test
  void retriesKeepToTheCallsTimeout() throws Exception {
    // hints of 400 ms under a 1 s timeout: sent at about 0, 0.4 and 0.8 s, never after it
    try (BusyAtFirst busy = new BusyAtFirst(9, retryAfter(0, 400_000_000));
         CanastaClient made = busy.client(Duration.ofSeconds(1))) {
      long started = System.nanoTime();
      assertThrows(CanastaException.class, made.withRetries(5)::listVariants);
      assertTrue(System.nanoTime() - started < 1_000_000_000L);
      assertEquals(3, busy.arrived.size());
      busy.assertGapsAtLeast(390);
    }
    // a minute's hint is waited MAX_RETRY_WAIT at most, which still passes a 5 s timeout
    try (BusyAtFirst busy = new BusyAtFirst(9, retryAfter(60, 0));
         CanastaClient made = busy.client(Duration.ofSeconds(5))) {
      assertThrows(CanastaException.class, made.withRetries(5)::listVariants);
      assertEquals(1, busy.arrived.size());
    }
  }

  @Test
  void versionIsClientsVersion() throws Exception {
    String want = Files.readString(sdkDir().resolve("../VERSION")).trim();
    assertEquals(want, Version.VERSION);
  }

  // ---- credentials (the server runs with CANASTA_ACCESS=tokens) ---------------------------

  private static List<Integer> seats(GetViewResponse views) {
    return views.getViewsList().stream().map(SeatView::getSeat).collect(Collectors.toList());
  }

  private static void assertRefused(Status.Code code, String reason, Runnable call) {
    CanastaException e = assertThrows(CanastaException.class, call::run);
    assertEquals(code, e.getCode(), e.getMessage());
    assertEquals(reason, e.getReason(), e.getMessage());
  }

  @Test
  void aSeatTokenSeesItsOwnHandOnly() {
    DealResponse deal = client.deal("classic", 4, 21);
    GetViewResponse every = client.withToken(deal.getHostToken()).view(deal.getSnapshot());
    assertEquals(List.of(0, 1, 2, 3), seats(every));
    assertTrue(every.getViewsList().stream().allMatch(v -> v.getHandCount() == 11));
    CanastaClient seat1 = client.withToken(deal.getSeatTokens(1));
    GetViewResponse mine = seat1.view(deal.getSnapshot());
    assertEquals(List.of(1), seats(mine));
    assertEquals(every.getViews(1).getHandList(), mine.getViews(0).getHandList());
    assertEquals(List.of(11, 11, 11, 11), mine.getViews(0).getHandSizesList());
    GetViewResponse pub = seat1.view(deal.getSnapshot(), -1);
    assertEquals(List.of(-1), seats(pub));
    assertEquals(0, pub.getViews(0).getHandCount());
    assertRefused(Status.Code.PERMISSION_DENIED, "SEAT_NOT_ALLOWED", () -> seat1.view(deal.getSnapshot(), 0));
  }

  @Test
  void aSeatTokenMovesForItsSeatOnly() {
    DealResponse deal = client.deal("classic", 4, 21);
    int turn = client.legalMoves(deal.getSnapshot(), deal.getHostToken()).getSeat();
    CanastaClient other = client.withToken(deal.getSeatTokens((turn + 1) % 4));
    assertRefused(Status.Code.PERMISSION_DENIED, "SEAT_NOT_ALLOWED", () -> other.applyMove(
        ApplyMoveRequest.newBuilder().setSnapshot(deal.getSnapshot()).setMove(CanastaClient.move("draw"))
            .setSeat(turn).build()));
    LegalMovesResponse waiting = other.legalMoves(deal.getSnapshot());
    assertEquals(turn, waiting.getSeat());
    assertEquals(0, waiting.getMovesCount());
    ApplyMoveResponse played = client.withToken(deal.getSeatTokens(turn)).play(deal.getSnapshot(), "draw");
    assertEquals(turn, played.getSeat());
    assertEquals(List.of(turn), played.getViewsList().stream().map(SeatView::getSeat).collect(Collectors.toList()));
  }

  @Test
  void aCallWithoutATokenIsRefused() {
    DealResponse deal = client.deal("classic", 4, 21);
    ByteString snapshot = deal.getSnapshot();
    assertRefused(Status.Code.UNAUTHENTICATED, "CREDENTIAL_REQUIRED", () -> client.legalMoves(snapshot));
    assertRefused(Status.Code.UNAUTHENTICATED, "CREDENTIAL_REQUIRED", () -> client.play(snapshot, "draw"));
    // a call's "" sends no token, whatever the client's
    CanastaClient host = client.withToken(deal.getHostToken());
    assertRefused(Status.Code.UNAUTHENTICATED, "CREDENTIAL_REQUIRED", () -> host.legalMoves(snapshot, ""));
    GetViewResponse pub = client.view(snapshot); // a spectator sees the public table
    assertEquals(List.of(-1), seats(pub));
    assertEquals(0, pub.getViews(0).getHandCount());
  }

  @Test
  void aTokenOfAnotherGameIsInvalid() {
    DealResponse mine = client.deal("classic", 4, 21);
    DealResponse theirs = client.deal("classic", 4, 21);
    ByteString snapshot = mine.getSnapshot();
    for (String token : List.of(theirs.getHostToken(), theirs.getSeatTokens(0))) {
      List<Function<CanastaClient, Object>> calls = List.of(
          c -> c.legalMoves(snapshot), c -> c.play(snapshot, "draw"), c -> c.view(snapshot));
      for (Function<CanastaClient, Object> call : calls) {
        assertRefused(Status.Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", () -> call.apply(client.withToken(token)));
      }
      assertRefused(Status.Code.UNAUTHENTICATED, "CREDENTIAL_INVALID", () -> client.legalMoves(snapshot, token));
    }
  }

  @Test
  void aTokenThatCannotBeAHeaderIsRefusedNotDropped() {
    // grpc-java drops a header value with a newline (logging a warning) and would send the
    // call without a credential: a spectator's view, where Python and Go refuse the token
    DealResponse deal = client.deal("classic", 4, 21);
    ByteString snapshot = deal.getSnapshot();
    for (String token : List.of(deal.getHostToken() + "\n", deal.getHostToken() + "\r\nx-a: b",
        "t\u00f6ken", " " + deal.getHostToken(), deal.getHostToken() + " ",
        deal.getHostToken().substring(0, 5) + "\t" + deal.getHostToken().substring(5))) {
      assertRefused(Status.Code.INTERNAL, "", () -> client.withToken(token).view(snapshot));
      assertRefused(Status.Code.INTERNAL, "", () -> client.view(snapshot, token));
      CanastaException e = assertThrows(CanastaException.class, () -> client.legalMoves(snapshot, token));
      assertFalse(e.getMessage().contains(deal.getHostToken()), "the message shows the token");
    }
  }

  @Test
  void aTokenWithSpacesAroundIsRefusedBeforeSending() {
    // as in every SDK: the server would strip the spaces, but a token is visible ASCII only
    DealResponse deal = client.deal("classic", 4, 21);
    CanastaException e = assertThrows(CanastaException.class,
        () -> client.withToken(deal.getHostToken() + " ").listVariants());
    assertEquals(Status.Code.INTERNAL, e.getCode());
    assertTrue(e.getServerMessage().contains("(U+0020) is not visible ASCII"), e.getMessage());
  }

  @Test
  void oneCredentialPerCallTheCallsOverTheClients() throws Exception {
    // a fake server that notes every authorization value a call carries: one, the call's
    // token when it has one, else the client's
    List<List<String>> seen = new CopyOnWriteArrayList<>();
    Metadata.Key<String> auth = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    Server server = serving((byte[] request, StreamObserver<byte[]> answer) -> {
      answer.onNext(new byte[0]);
      answer.onCompleted();
    }, new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
          ServerCallHandler<Q, A> next) {
        List<String> values = new ArrayList<>();
        Iterable<String> all = headers.getAll(auth);
        if (all != null) {
          all.forEach(values::add);
        }
        seen.add(values);
        return next.startCall(call, headers);
      }
    });
    try (CanastaClient made = CanastaClient.connect("127.0.0.1:" + server.getPort())) {
      CanastaClient seat = made.withToken("client-token").withRetries(1).withRequestId("r-1");
      seat.scoreHand(ByteString.EMPTY, "call-token");
      seat.scoreHand(ByteString.EMPTY);
      seat.scoreHand(ByteString.EMPTY, "");
      made.scoreHand(ByteString.EMPTY, "call-token");
      assertEquals(List.of(List.of("Bearer call-token"), List.of("Bearer client-token"), List.of(),
          List.of("Bearer call-token")), seen);
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void aCallsRequestIdIsSentAndReadBack() {
    List<String> heard = new CopyOnWriteArrayList<>();
    CanastaClient listening = client.withRequestIdListener(heard::add);
    listening.withRequestId("java-req-1").listVariants();
    listening.listVariants();
    CanastaException e = assertThrows(CanastaException.class,
        () -> listening.withRequestId("java-req-2").view(ByteString.copyFromUtf8("not a snapshot")));
    assertEquals(Optional.of("java-req-2"), e.getRequestId());
    assertEquals("java-req-2", listening.withRequestId("java-req-2").withToken("t").getRequestId());
    CanastaException made = assertThrows(CanastaException.class,
        () -> client.view(ByteString.copyFromUtf8("not a snapshot")));
    assertTrue(made.getRequestId().isPresent(), "the server's own request id");
    assertEquals(3, heard.size(), heard.toString());
    assertEquals("java-req-1", heard.get(0));
    assertFalse(heard.get(1).isEmpty() || heard.get(1).equals("java-req-1"), heard.toString());
    assertEquals("java-req-2", heard.get(2));
  }

  @Test
  void aRequestIdThatCannotBeAHeaderIsRefusedBeforeSending() {
    // as in the Python and TypeScript SDKs: grpc-java dropped one with a newline (the server
    // made one up) and sent one outside ASCII as '?', without a word
    List<String> heard = new CopyOnWriteArrayList<>();
    for (String id : List.of("r\n1", "r\r\nx-a: b", "r\u00e9")) {
      CanastaException e = assertThrows(CanastaException.class,
          () -> client.withRequestId(id).withRequestIdListener(heard::add).listVariants());
      assertEquals(Status.Code.INTERNAL, e.getCode(), e.getMessage());
      assertEquals("", e.getReason());
      assertTrue(e.getServerMessage().startsWith("the request id cannot be sent: its character 2 (U+"),
          e.getMessage());
    }
    assertEquals(List.of(), heard);
    client.withRequestId("table 7/42").withRequestIdListener(heard::add).listVariants();
    assertEquals(List.of("table 7/42"), heard);
  }

  @Test
  void aCallsTokenWinsOverTheClients() {
    DealResponse deal = client.deal("classic", 4, 21);
    CanastaClient seat2 = client.withToken(deal.getSeatTokens(2));
    assertEquals(List.of(2), seats(seat2.view(deal.getSnapshot())));
    assertEquals(List.of(0, 1, 2, 3), seats(seat2.view(deal.getSnapshot(), deal.getHostToken())));
    assertEquals(deal.getSeatTokens(2), seat2.withTimeout(Duration.ofSeconds(5)).getToken());
  }

  @Test
  void expectedGameIdIsChecked() {
    DealResponse deal = client.deal("classic", 4, 21);
    DealResponse other = client.deal("classic", 4, 21);
    CanastaClient host = client.withToken(deal.getHostToken());
    ApplyMoveRequest.Builder draw = ApplyMoveRequest.newBuilder().setSnapshot(deal.getSnapshot())
        .setMove(CanastaClient.move("draw"));
    assertRefused(Status.Code.ABORTED, "SNAPSHOT_WRONG_GAME",
        () -> host.applyMove(draw.setExpectedGameId(other.getHeader().getGameId()).build()));
    ApplyMoveResponse played = host.applyMove(draw.setExpectedGameId(deal.getHeader().getGameId()).build());
    assertEquals(deal.getHeader().getGameId(), played.getHeader().getGameId());
  }

  @Test
  void suggestMoveWithASeatToken() {
    DealResponse deal = client.deal("classic", 4, 3);
    int turn = client.legalMoves(deal.getSnapshot(), deal.getHostToken()).getSeat();
    CanastaClient mover = client.withToken(deal.getSeatTokens(turn));
    SuggestMoveResponse hint = mover.suggestMove(deal.getSnapshot(), "greedy", 1);
    assertEquals(turn, hint.getSeat());
    assertEquals("greedy", hint.getLevel());
    assertEquals(hint, mover.suggestMove(deal.getSnapshot(), "greedy", 1), "the same seed, the same move");
    ApplyMoveResponse played = mover.applyMove(deal.getSnapshot(), hint.getMove());
    assertEquals(hint.getMove().getText(), played.getMove().getText());
    CanastaClient other = client.withToken(deal.getSeatTokens((turn + 1) % 4));
    assertRefused(Status.Code.PERMISSION_DENIED, "SEAT_NOT_ALLOWED", () -> other.suggestMove(
        SuggestMoveRequest.newBuilder().setSnapshot(deal.getSnapshot()).setSeat(turn).build()));
  }

  @Test
  void suggestMoveFromItsPartsWithACallsToken() {
    // the overload of a snapshot, level and seed takes a call's token too, as the README says
    DealResponse deal = client.deal("classic", 4, 5);
    int due = client.withToken(deal.getHostToken()).legalMoves(deal.getSnapshot()).getSeat();
    SuggestMoveResponse advice =
        client.suggestMove(deal.getSnapshot(), "greedy", 3, deal.getSeatTokens(due));
    assertEquals(due, advice.getSeat());
    assertRefused(Status.Code.UNAUTHENTICATED, "CREDENTIAL_REQUIRED",
        () -> client.suggestMove(deal.getSnapshot(), "greedy", 3, ""));
  }

  @Test
  void importPositionThenExportItWithTheHostToken() {
    DealResponse deal = client.deal("classic", 4, 5);
    String position = client.exportPosition(deal.getSnapshot(), deal.getHostToken()).getPosition();
    ImportPositionResponse imported = client.importPosition(position);
    assertTrue(imported.getHeader().getImported());
    assertEquals(0L, imported.getHeader().getSeq());
    assertEquals(4, imported.getSeatTokensCount());
    CanastaClient host = client.withToken(imported.getHostToken());
    assertEquals(position, host.exportPosition(imported.getSnapshot()).getPosition());
  }

  @Test
  void legalMovesComeInPages() {
    // a May I? hand with sets of any size (MI-CON-2) lists more moves than one page holds
    String position = String.join("\n", "mayi-position 1", "variant: may_i", "players: 3",
        "options: contract_exact_sizes=false", "hand: 3", "phase: meld", "turn: 0", "drew: stock",
        "buys: 3 0 0", "hand0: 4S 4S 4H 4H 4D 4D 4C 4C 5S 5S 5H 5H 5D 5D 5C 5C 8S",
        "hand1: *1", "hand2: *1", "stock: *", "");
    ImportPositionResponse imported = client.importPosition(position);
    CanastaClient host = client.withToken(imported.getHostToken());
    LegalMovesResponse first = host.legalMoves(imported.getSnapshot());
    assertEquals(1000, first.getMovesCount());
    assertTrue(first.getTotalSize() > 1000 && !first.getNextPageToken().isEmpty());
    List<Move> every = host.allLegalMoves(imported.getSnapshot(), null);
    assertEquals(first.getTotalSize(), every.size());
    // with the client's own token, as every other call that takes a snapshot has it
    assertEquals(every, host.allLegalMoves(imported.getSnapshot()));
    assertEquals(first.getMoves(999).getText(), every.get(999).getText());
    LegalMovesResponse small = host.legalMoves(LegalMovesRequest.newBuilder()
        .setSnapshot(imported.getSnapshot()).setPageSize(3)
        .setPageToken(first.getNextPageToken()).build());
    assertEquals(3, small.getMovesCount());
    assertEquals(every.get(1000).getText(), small.getMoves(0).getText());
  }

  @Test
  void exportRecordForTheHostAndASeat() {
    DealResponse deal = client.deal("classic", 4, 5);
    CanastaClient host = client.withToken(deal.getHostToken());
    String start = host.exportRecord(
        ExportRecordRequest.newBuilder().setSnapshot(deal.getSnapshot()).build()).getRecord();
    ApplyMoveResponse played = host.play(deal.getSnapshot(), "draw");
    String record = start + played.getSeat() + " " + played.getMove().getText() + "\n";
    ExportRecordRequest request = ExportRecordRequest.newBuilder()
        .setSnapshot(played.getSnapshot()).setRecord(record).build();
    String full = host.exportRecord(request).getRecord();
    assertTrue(full.startsWith("canasta-record 1\n") && full.contains("seed: 5"), full);
    String own = client.exportRecord(request, deal.getSeatTokens(1)).getRecord();
    assertTrue(own.contains("view: 1") && !own.contains("seed:"), own);
    assertEquals(own, host.exportRecord(request.toBuilder().setViewSeat(1).build()).getRecord());
  }

  /** The seed a deal's game was dealt with, read from the host's record. */
  private static long dealtSeed(DealResponse deal) {
    String record = client.exportRecord(
        ExportRecordRequest.newBuilder().setSnapshot(deal.getSnapshot()).build(),
        deal.getHostToken()).getRecord();
    return record.lines().filter(line -> line.startsWith("seed: "))
        .map(line -> Long.parseUnsignedLong(line.substring("seed: ".length())))
        .findFirst().orElseThrow(() -> new AssertionError("no seed in the record:\n" + record));
  }

  /**
   * A deal without a seed gets a random 64-bit one: on the wire 0 is a seed like any other, and
   * every such game would be the same deal, which anybody can replay.
   */
  @Test
  void aDealWithoutASeedGetsARandomOne() {
    DealRequest unseeded = DealRequest.newBuilder().setVariant("classic").setPlayers(2).build();
    List<Long> seeds = List.of(dealtSeed(client.deal(unseeded)), dealtSeed(client.deal(unseeded)),
        dealtSeed(client.deal("classic", 2)), dealtSeed(client.deal("classic", 2, 0)));
    assertEquals(4, seeds.stream().distinct().count(), seeds.toString());
    assertFalse(seeds.contains(0L), seeds.toString());
    assertTrue(seeds.stream().anyMatch(s -> Long.compareUnsigned(s, 1L << 40) >= 0), seeds.toString());
    assertEquals(-1L, dealtSeed(client.deal("classic", 2, -1L)), "2^64 - 1 is sent as it is");
    assertFalse(CanastaClient.randomSeed() == CanastaClient.randomSeed());
  }

  @Test
  void aSeatTokensExportIsRefused() {
    DealResponse deal = client.deal("classic", 4, 5);
    for (String token : deal.getSeatTokensList()) {
      assertRefused(Status.Code.PERMISSION_DENIED, "SEAT_NOT_ALLOWED",
          () -> client.exportPosition(deal.getSnapshot(), token));
    }
  }

  /**
   * The answers that carry credentials mark them {@code debug_redact} (docs/security.md,
   * <i>Clients: where a token may show</i>): protobuf's {@code DebugFormat}, the form to log
   * an answer in, prints the rest of the answer and none of its tokens.
   */
  @Test
  void debugFormatPrintsAnAnswerWithoutItsTokens() {
    DealResponse deal = client.deal("classic", 4, 5);
    ImportPositionResponse imported = client.importPosition(
        client.exportPosition(deal.getSnapshot(), deal.getHostToken()).getPosition());
    NextDealResponse next = NextDealResponse.newBuilder().setHeader(deal.getHeader())
        .setHostToken(deal.getHostToken()).addAllSeatTokens(deal.getSeatTokensList()).build();
    assertPrintedWithoutTokens(deal, deal.getHeader().getGameId(), deal.getHostToken(), deal.getSeatTokensList());
    assertPrintedWithoutTokens(imported, imported.getHeader().getGameId(), imported.getHostToken(),
        imported.getSeatTokensList());
    assertPrintedWithoutTokens(next, next.getHeader().getGameId(), next.getHostToken(), next.getSeatTokensList());
  }

  private static void assertPrintedWithoutTokens(MessageOrBuilder answer, String gameId, String hostToken,
      List<String> seatTokens) {
    List<String> tokens = new ArrayList<>(seatTokens);
    tokens.add(hostToken);
    for (String printed : List.of(DebugFormat.singleLine().toString(answer),
        DebugFormat.multiline().toString(answer), DebugFormat.singleLine().lazyToString(answer).toString())) {
      assertTrue(printed.contains(gameId), printed);
      for (String token : tokens) {
        assertFalse(printed.contains(token), "a token in the printed " + answer.getDescriptorForType().getName());
      }
    }
  }
}
