package dev.roundhouse.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cold start, timed from the moment the process is started: a stdio server to its first answer to
 * {@code initialize} ({@link #stdio}), or {@code serve} to a 200 from {@code /api/health} ({@link #serve}).
 * Each also reads the process's CPU time (user + system, from {@code /proc}) at that moment, and whether the
 * launcher said it used its start cache. Stateless; thread-safe.
 */
final class StartProbe {
  /** One start: wall time to the answer, CPU time by then (-1 when unknown), and whether the start cache was used. */
  record Start(double millis, double cpuMillis, boolean cached) {}

  private static final Duration DEADLINE = Duration.ofSeconds(120);
  private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
  private static final String CACHE_USED = "start cache: using";

  private StartProbe() {}

  /** What to write to start a server speaking {@code protocol}: {@code mcp} and {@code acp} by lines, {@code lsp} framed. */
  static byte[] initialize(String protocol) {
    String message = switch (protocol) {
      case "mcp" -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench-start\",\"version\":\"1\"}}}";
      case "acp" -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1,\"clientCapabilities\":{}}}";
      case "lsp" -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}";
      default -> throw new IllegalArgumentException(protocol);
    };
    String framed = protocol.equals("lsp")
        ? "Content-Length: " + message.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + message
        : message + "\n";
    return framed.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Starts {@code command}, writes {@code initialize}, and waits for the first line of stdout that answers it
   * (for LSP, the header of the answer); then closes stdin and waits for the process to end.
   */
  static Start stdio(List<String> command, Map<String, String> env, Path directory, byte[] initialize) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    builder.environment().putAll(env);
    long started = System.nanoTime();
    Process process = builder.start();
    StringBuffer err = drain(process.getErrorStream());
    try (OutputStream in = process.getOutputStream()) {
      in.write(initialize);
      in.flush();
      CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> firstAnswer(process.getInputStream()),
          task -> Thread.ofVirtual().start(task));
      String line = answer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      long answered = System.nanoTime();
      double cpu = cpuMillis(process.pid());
      if (line == null) {
        throw new IOException(String.join(" ", command) + " ended without answering initialize; stderr: " + err);
      }
      return new Start((answered - started) / 1e6, cpu, err.indexOf(CACHE_USED) >= 0);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException(String.join(" ", command) + " did not answer initialize within " + DEADLINE.toSeconds() + " s; stderr: " + err, e);
    } finally {
      stop(process);
    }
  }

  /**
   * Starts {@code command} (a {@code serve}), waits for its "listening on" line on stderr, then asks
   * {@code /api/health} until it answers 200. Returns with the hub still running: the caller stops it.
   */
  static Start serve(Process process, long started) throws IOException, InterruptedException {
    StringBuilder err = new StringBuilder();
    String url = null;
    BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
    for (String line; url == null && (line = lines.readLine()) != null; ) {
      err.append(line).append('\n');
      Matcher listening = LISTENING.matcher(line);
      if (listening.find()) {
        url = listening.group(1);
      }
    }
    if (url == null) {
      throw new IOException("serve ended without listening; stderr: " + err);
    }
    drainRest(lines);
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!healthy(url)) {
      if (System.nanoTime() > deadline || !process.isAlive()) {
        throw new IOException("serve at " + url + " did not answer /api/health with 200; stderr: " + err);
      }
      Thread.onSpinWait();
    }
    long answered = System.nanoTime();
    return new Start((answered - started) / 1e6, cpuMillis(process.pid()), err.indexOf(CACHE_USED) >= 0);
  }

  /** The URL a running {@code serve} printed, read from its stderr. */
  static String awaitUrl(Process process) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
    for (String line; (line = lines.readLine()) != null; ) {
      Matcher listening = LISTENING.matcher(line);
      if (listening.find()) {
        drainRest(lines);
        return listening.group(1);
      }
    }
    throw new IOException("serve ended without listening");
  }

  /** Closes stdin, waits for the process to end (SIGTERM after 20 s, then SIGKILL). */
  static void stop(Process process) {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Stops a {@code serve} with SIGTERM, as a terminal or a service manager does. */
  static void terminate(Process process) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static boolean healthy(String url) {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(url + "/api/health").toURL().openConnection();
      connection.setConnectTimeout(2000);
      connection.setReadTimeout(5000);
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      return false;
    }
  }

  /** The first line of stdout, or the first header of a framed answer; null when stdout ends first. */
  private static String firstAnswer(InputStream stdout) {
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8));
      for (String line; (line = lines.readLine()) != null; ) {
        if (!line.isBlank()) {
          drainRest(lines);
          return line;
        }
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  private static StringBuffer drain(InputStream stream) {
    StringBuffer text = new StringBuffer();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
        for (String line; (line = lines.readLine()) != null; ) {
          if (text.length() < 8192) {
            text.append(line).append('\n');
          }
        }
      } catch (IOException e) {
        // the process ended
      }
    });
    return text;
  }

  private static void drainRest(BufferedReader lines) {
    Thread.ofVirtual().start(() -> {
      try (lines) {
        while (lines.readLine() != null) {
          // keep the pipe from filling
        }
      } catch (IOException e) {
        // the process ended
      }
    });
  }

  /** User + system CPU time of process {@code pid} so far, from {@code /proc}; -1 where there is none. */
  static double cpuMillis(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10.0; // clock ticks of 10 ms (USER_HZ 100)
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
