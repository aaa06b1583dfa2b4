package dev.roundhouse.hub.turns;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.store.RunnerReads;
import dev.roundhouse.hub.store.Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.Generation;
import dev.roundhouse.hub.api.TurnApi;

/**
 * Transcripts by generation, and {@code task_clear}: a generation ends with a summary (the driver's, or an
 * extractive fallback) that seeds every later turn of the task. A generation's events are the task's
 * events after the previous generation's last sequence number.
 *
 * <p>Thread-safe: stateless beyond the store.
 */
public final class Transcripts {
  private static final int DEFAULT_LIMIT = 500;
  private static final int MAX_LIMIT = 5000;
  private static final int SUMMARY_CHARS = 2000;

  private final Store store;
  private final DriverRegistry drivers;

  public Transcripts(Store store, DriverRegistry drivers) {
    this.store = store;
    this.drivers = drivers;
  }

  public TurnApi.Transcript read(TurnApi.TranscriptQuery in) {
    int limit = in.limit() == null ? DEFAULT_LIMIT : in.limit();
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new RoundhouseException.InvalidInput("limit must be between 1 and " + MAX_LIMIT + ", not " + limit);
    }
    return store.read(r -> {
      r.task(in.task()).orElseThrow(() -> new RoundhouseException.NotFound("no task " + in.task()));
      RunnerReads runner = r.runner();
      int current = runner.generation(in.task());
      int generation = in.generation() == null ? current : in.generation();
      if (generation < 1 || generation > current) {
        throw new RoundhouseException.InvalidInput(
            "task " + in.task() + " has generations 1 to " + current + ", not " + generation);
      }
      List<Generation> ended = runner.generations(in.task());
      long lower = generation == 1 ? 0 : ended.get(generation - 2).lastSeq();
      long upper = generation == current ? Long.MAX_VALUE : ended.get(generation - 1).lastSeq();
      long after = Math.max(lower, in.after() == null ? lower : in.after());
      List<Event> page = runner.taskEvents(in.task(), after, upper, limit + 1, true);
      boolean more = page.size() > limit;
      List<Event> entries = more ? page.subList(0, limit) : page;
      List<String> prior = ended.stream().filter(g -> g.generation() < generation).map(Generation::summary).toList();
      long last = entries.isEmpty() ? after : entries.getLast().seq();
      return new TurnApi.Transcript(in.task(), generation, current, prior, entries, more, last);
    });
  }

  /** Where a task's current generation starts in the event sequence (for snapshot-then-tail streams). */
  public long generationStart(long task) {
    return store.read(r -> {
      List<Generation> ended = r.runner().generations(task);
      return ended.isEmpty() ? 0L : ended.getLast().lastSeq();
    });
  }

  public TurnApi.Cleared clear(Actor actor, long taskId) {
    Snapshot snapshot = store.read(r -> {
      Task task = r.task(taskId).orElseThrow(() -> new RoundhouseException.NotFound("no task " + taskId));
      r.runner().activeTurn(taskId).ifPresent(turn -> {
        throw new RoundhouseException.Conflict(
            "task " + taskId + " has turn " + turn.id() + " " + turn.status() + "; stop it with turn_stop before clearing");
      });
      List<Generation> ended = r.runner().generations(taskId);
      long lower = ended.isEmpty() ? 0 : ended.getLast().lastSeq();
      List<Event> events = r.runner().taskEvents(taskId, lower, Long.MAX_VALUE, Integer.MAX_VALUE, true);
      String driver = r.runner().turns(taskId, 1).stream().map(Turn::driver).findFirst().orElse(null);
      return new Snapshot(task, r.runner().generation(taskId), events, driver);
    });
    String text = plainText(snapshot.events);
    String summarisedBy = "extractive";
    Optional<String> fromDriver = Optional.empty();
    if (snapshot.driver != null && drivers.has(snapshot.driver) && !snapshot.events.isEmpty()) {
      try {
        fromDriver = drivers.get(snapshot.driver).summarise(text).filter(s -> !s.isBlank());
      } catch (RuntimeException e) {
        fromDriver = Optional.empty();
      }
    }
    String summary = fromDriver.orElseGet(() -> extractive(snapshot.events));
    if (fromDriver.isPresent()) {
      summarisedBy = snapshot.driver;
    }
    long lastSeq = snapshot.events.isEmpty() ? generationStart(taskId) : snapshot.events.getLast().seq();
    String by = summarisedBy;
    return store.write(w -> {
      int generation = w.runner().generation(taskId);
      if (generation != snapshot.generation) {
        throw new RoundhouseException.Conflict("task " + taskId + " was cleared meanwhile; read it again");
      }
      w.runner().activeTurn(taskId).ifPresent(turn -> {
        throw new RoundhouseException.Conflict("task " + taskId + " started turn " + turn.id() + " meanwhile; stop it first");
      });
      w.runner().insertGeneration(taskId, generation, summary, by, lastSeq, w.now());
      w.runner().setGeneration(taskId, generation + 1);
      w.append(new RunnerEvent.Cleared(generation, generation + 1, summary, by).draft(actor, snapshot.task.projectId(), taskId));
      return new TurnApi.Cleared(taskId, generation, generation + 1, summary, by);
    });
  }

  private record Snapshot(Task task, int generation, List<Event> events, String driver) {}

  /** The transcript as plain text, for a driver's summariser. */
  static String plainText(List<Event> events) {
    StringBuilder text = new StringBuilder();
    for (Event event : events) {
      JsonNode data = event.data();
      switch (event.type()) {
        case "turn.user_message" -> text.append("User: ").append(data.path("text").asText()).append("\n");
        case "turn.message" -> text.append("Assistant: ").append(data.path("text").asText()).append("\n");
        case "turn.tool_call" -> text.append("Tool call ").append(data.path("tool").asText()).append(": ")
            .append(data.path("input").toString()).append("\n");
        case "turn.tool_result" -> text.append("Tool result: ").append(truncate(data.path("output").asText(), 500)).append("\n");
        case "turn.error" -> text.append("Error: ").append(data.path("message").asText()).append("\n");
        default -> { }
      }
    }
    return text.toString();
  }

  /** The fallback summary: what was asked, what the agent last said, which tools it used. */
  static String extractive(List<Event> events) {
    String firstAsk = null;
    String lastAsk = null;
    String lastAnswer = null;
    Map<String, Integer> tools = new LinkedHashMap<>();
    int errors = 0;
    for (Event event : events) {
      switch (event.type()) {
        case "turn.user_message" -> {
          String text = event.data().path("text").asText();
          if (firstAsk == null) {
            firstAsk = text;
          }
          lastAsk = text;
        }
        case "turn.message" -> lastAnswer = event.data().path("text").asText();
        case "turn.tool_call" -> tools.merge(event.data().path("tool").asText(), 1, Integer::sum);
        case "turn.error" -> errors++;
        default -> { }
      }
    }
    if (firstAsk == null && lastAnswer == null) {
      return "Nothing happened in this generation.";
    }
    StringBuilder summary = new StringBuilder();
    if (firstAsk != null) {
      summary.append("Asked: ").append(truncate(firstAsk, 600)).append("\n");
    }
    if (lastAsk != null && !lastAsk.equals(firstAsk)) {
      summary.append("Last asked: ").append(truncate(lastAsk, 400)).append("\n");
    }
    if (lastAnswer != null) {
      summary.append("Last answer: ").append(truncate(lastAnswer, 800)).append("\n");
    }
    if (!tools.isEmpty()) {
      summary.append("Tools used: ");
      tools.forEach((tool, count) -> summary.append(tool).append(count > 1 ? " x" + count : "").append(", "));
      summary.setLength(summary.length() - 2);
      summary.append("\n");
    }
    if (errors > 0) {
      summary.append("Errors: ").append(errors).append("\n");
    }
    return truncate(summary.toString().strip(), SUMMARY_CHARS);
  }

  private static String truncate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
