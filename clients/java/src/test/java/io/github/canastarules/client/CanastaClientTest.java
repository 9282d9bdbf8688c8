package io.github.canastarules.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.github.canastarules.canasta.v1.ApplyMoveRequest;
import io.github.canastarules.canasta.v1.ApplyMoveResponse;
import io.github.canastarules.canasta.v1.DealRequest;
import io.github.canastarules.canasta.v1.DealResponse;
import io.github.canastarules.canasta.v1.EventType;
import io.github.canastarules.canasta.v1.GetViewResponse;
import io.github.canastarules.canasta.v1.LegalMovesResponse;
import io.github.canastarules.canasta.v1.Move;
import io.github.canastarules.canasta.v1.NextDealRequest;
import io.github.canastarules.canasta.v1.NextDealResponse;
import io.github.canastarules.canasta.v1.ScoreBreakdown;
import io.github.canastarules.canasta.v1.ScoreHandResponse;
import io.github.canastarules.canasta.v1.SideScore;
import io.grpc.Status;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void readmeExampleRuns(@TempDir Path tmp) throws Exception {
    String readme = Files.readString(sdkDir().resolve("README.md"));
    Matcher m = Pattern.compile("```java\n(import .*?)```", Pattern.DOTALL).matcher(readme);
    assertTrue(m.find(), "README has a Java program");
    String source = m.group(1).replace("\"127.0.0.1:50051\"", "\"" + target + "\"");
    Path file = tmp.resolve("Example.java");
    Files.writeString(file, source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-d", tmp.toString(),
        "-cp", System.getProperty("java.class.path"), file.toString());
    assertEquals(0, rc, "the README example compiles");
    PrintStream stdout = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {tmp.toUri().toURL()},
        getClass().getClassLoader())) {
      Method main = loader.loadClass("Example").getMethod("main", String[].class);
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      main.invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(stdout);
    }
    List<String> teams = out.toString(StandardCharsets.UTF_8).lines()
        .map(line -> line.split(":")[0]).collect(Collectors.toList());
    assertEquals(List.of("team 0", "team 1"), teams);
  }

  @Test
  void playsAWholeClassicFourHandedHand() {
    DealResponse deal = client.deal("classic", 4, 11);
    assertEquals(0, deal.getHeader().getSeq());
    ByteString snapshot = deal.getSnapshot();
    long seq = 0;
    ApplyMoveResponse played = null;
    for (int i = 0; i < MAX_MOVES; i++) {
      LegalMovesResponse legal = client.legalMoves(snapshot);
      Move chosen = CanastaClient.firstProgressMove(legal.getMovesList());
      played = client.applyMove(ApplyMoveRequest.newBuilder().setSnapshot(snapshot).setMove(chosen)
          .setExpectedSeq(seq).setSeat(legal.getSeat()).build());
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
    ScoreHandResponse score = client.scoreHand(snapshot);
    assertTrue(score.getHandOver());
    assertEquals(2, score.getSidesCount());
    for (SideScore side : score.getSidesList()) {
      ScoreBreakdown b = side.getBreakdown();
      assertEquals(side.getTotal(), b.getBase() + b.getCanastaBonus() + b.getGoingOut()
          + b.getRedThreePoints() - b.getInHand() - b.getPenalties());
    }
    if (!played.getGameOver()) {
      NextDealResponse next = client.nextDeal(
          NextDealRequest.newBuilder().setSnapshot(snapshot).setExpectedSeq(seq).build());
      assertEquals(seq + 1, next.getHeader().getSeq());
      assertTrue(next.getEventsList().stream().anyMatch(e -> e.getType() == EventType.EVENT_TYPE_HAND_DEALT));
    }
  }

  @Test
  void viewsASeatAndPlaysAMoveFromItsText() {
    DealResponse deal = client.deal(DealRequest.newBuilder().setVariant("classic").setPlayers(4)
        .setSeed(3).setViewSeat(0).build());
    assertEquals(1, deal.getViewsCount());
    GetViewResponse mine = client.view(deal.getSnapshot(), 0);
    assertEquals(1, mine.getViewsCount());
    assertEquals(11, mine.getViews(0).getHandCount());
    ApplyMoveResponse played = client.play(deal.getSnapshot(), "draw");
    assertEquals("draw", played.getMove().getText());
    assertTrue(played.getMove().hasDraw());
  }

  @Test
  void tamperedSnapshotIsSnapshotInvalid() {
    byte[] bytes = client.deal("classic", 4, 5).getSnapshot().toByteArray();
    bytes[bytes.length / 2] ^= 1;
    CanastaException e = assertThrows(CanastaException.class,
        () -> client.legalMoves(ByteString.copyFrom(bytes)));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getCode());
    assertEquals("SNAPSHOT_INVALID", e.getReason());
  }

  @Test
  void illegalMoveIsARuleViolation() {
    ByteString snapshot = client.deal("classic", 4, 5).getSnapshot();
    CanastaException e = assertThrows(CanastaException.class, () -> client.play(snapshot, "discard 4D"));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.getCode());
    assertTrue(e.isRuleViolation());
    assertTrue(ILLEGAL.contains(e.getReason()), e.getReason());
    assertFalse(e.getServerMessage().isEmpty());
  }

  @Test
  void staleSnapshotAndBadRequest() {
    ByteString snapshot = client.deal("classic", 4, 5).getSnapshot();
    CanastaException stale = assertThrows(CanastaException.class, () -> client.applyMove(
        ApplyMoveRequest.newBuilder().setSnapshot(snapshot).setMove(CanastaClient.move("draw"))
            .setExpectedSeq(7).build()));
    assertEquals(Status.Code.ABORTED, stale.getCode());
    assertEquals("SNAPSHOT_STALE", stale.getReason());
    CanastaException bad = assertThrows(CanastaException.class, () -> client.deal("classic", 9, 1));
    assertEquals("BAD_PLAYER_COUNT", bad.getReason());
    assertEquals("players", bad.getFieldViolations().get(0).getField());
  }

  @Test
  void deadlinesAreTypedErrors() throws Exception {
    // a server that accepts the connection and never answers: the deadline ends the call
    try (ServerSocket silent = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        CanastaClient slow = CanastaClient.connect("127.0.0.1:" + silent.getLocalPort(),
            Duration.ofMillis(300))) {
      long started = System.nanoTime();
      CanastaException e = assertThrows(CanastaException.class, slow::listVariants);
      assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getCode());
      assertEquals("DEADLINE_EXCEEDED", e.getReason());
      assertTrue(System.nanoTime() - started < 10_000_000_000L, "the deadline was applied");
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
  void versionIsClientsVersion() throws Exception {
    String want = Files.readString(sdkDir().resolve("../VERSION")).trim();
    assertEquals(want, Version.VERSION);
  }
}
