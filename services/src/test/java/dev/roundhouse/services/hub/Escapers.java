package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.process.ProcFs;
import dev.roundhouse.hub.testing.HttpTestClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A dev service and a terminal whose processes try every way out of their group: a background child, a
 * {@code setsid} grandchild, and a {@code setsid env -i} grandchild (no group, no marker: only a cgroup holds it).
 * Each writes its pid to a file of its own, so a test can watch exactly those processes (by pid and start time).
 * For {@link ContainedProcessesTest} and {@link ContainedCrashingHub}.
 */
final class Escapers {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private Escapers() {}

  /** A process seen alive: gone once its pid is free, reused by another start, or a zombie. */
  record Seen(long pid, long startTicks) {
    boolean alive() {
      return ProcFs.stat(pid).filter(stat -> stat.startTicks() == startTicks && !stat.zombie()).isPresent();
    }

    @Override
    public String toString() {
      return pid + " (" + String.join(" ", ProcFs.cmdline(pid)) + ")";
    }
  }

  /** The leader's escapes, each pid appended to {@code "$1"}; {@code env -i} only where a cgroup can catch it. */
  static String escapes(boolean clearedEnvironment) {
    return "sleep 1000 & echo $! >> \"$1\"; setsid sleep 1000 & echo $! >> \"$1\";"
        + (clearedEnvironment ? " setsid env -i sleep 1000 & echo $! >> \"$1\";" : "");
  }

  /** Defines and starts service {@code escaper} in {@code project}: it leads its group as a sleep after its escapes. */
  static void startService(HttpTestClient http, String project, Path pids, boolean clearedEnvironment) {
    http.op("service_define", HttpTestClient.map("project", project, "name", "escaper", "argv", List.of("/bin/sh", "-c",
        "echo $$ >> \"$1\"; " + escapes(clearedEnvironment) + " exec sleep 1000", "sh", pids.toString())));
    http.op("service_start", HttpTestClient.map("project", project, "service", "escaper", "wait_seconds", 30));
  }

  /** Opens a terminal on the hub at {@code url} and has its shell start the escapes; the socket stays open. */
  static WebSocket openTerminal(HttpClient client, String url, String token, String project, Path pids,
      boolean clearedEnvironment) {
    StringBuffer seen = new StringBuffer();
    WebSocket socket = client.newWebSocketBuilder().header("Authorization", "Bearer " + token)
        .buildAsync(URI.create(url.replace("http://", "ws://") + "/api/x/pty?project=" + project), new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            seen.append(new String(bytes, StandardCharsets.UTF_8));
            webSocket.request(1);
            return null;
          }
        }).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    // The escapes run in a non-interactive sh, whose background jobs are not group leaders (setsid execs in place).
    String line = "sh -c 'echo $PPID >> \"$1\"; " + escapes(clearedEnvironment).replace("'", "") + "' sh " + pids + "\n";
    socket.sendBinary(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)), true).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    return socket;
  }

  /** Waits until {@code pids} holds {@code count} pids, and returns them as seen alive. */
  static List<Seen> await(Path pids, int count) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      List<Seen> seen = read(pids);
      if (seen.size() >= count) {
        return seen;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + seen.size() + " of " + count + " pids in " + pids + " after " + WAIT);
      }
      java.util.concurrent.locks.LockSupport.parkNanos(20_000_000); // another process writes the file: no event here
    }
  }

  private static List<Seen> read(Path pids) {
    List<Seen> seen = new ArrayList<>();
    try {
      if (!Files.exists(pids)) {
        return seen;
      }
      for (String line : Files.readAllLines(pids)) {
        if (line.isBlank()) {
          continue;
        }
        long pid = Long.parseLong(line.strip());
        ProcFs.stat(pid).ifPresent(stat -> seen.add(new Seen(pid, stat.startTicks())));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return seen;
  }

  /** Reads back what {@link #save} wrote. */
  static List<Seen> load(String text) {
    List<Seen> seen = new ArrayList<>();
    for (com.fasterxml.jackson.databind.JsonNode entry : Json.read(text, com.fasterxml.jackson.databind.JsonNode.class)) {
      seen.add(new Seen(entry.path("pid").asLong(), entry.path("startTicks").asLong()));
    }
    return seen;
  }

  static String save(List<Seen> seen) {
    return Json.write(seen.stream().map(s -> Map.of("pid", s.pid(), "startTicks", s.startTicks())).toList());
  }
}
