package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.HttpTestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the calendar tests drive: a hub in {@code home} with one {@link CalendarExtension}, a project "life"
 * (its folder in {@code home}) and one task, whose agent is {@link #agent}. Thread-safe as the hub is; close it.
 */
final class CalendarHub implements AutoCloseable {
  final Hub hub;
  final long task;
  final Actor agent;

  private CalendarHub(Hub hub, long task) {
    this.hub = hub;
    this.task = task;
    this.agent = Actor.agent(task);
  }

  /** Opens the hub with {@code extension}, and creates the project and a task titled {@code taskTitle}. */
  static CalendarHub open(Path home, String taskTitle, CalendarExtension extension) throws IOException {
    Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(extension));
    try {
      invoke(hub, "project_create", Actor.USER, "name", "life", "path", Files.createDirectories(home.resolve("life")).toString());
      return new CalendarHub(hub, invoke(hub, "task_create", Actor.USER, "project", "life", "title", taskTitle).get("id").asLong());
    } catch (IOException | RuntimeException e) {
      hub.close();
      throw e;
    }
  }

  /** A staged decision, and the text of the calendar file it was already written into. */
  record Written(long decision, String ics) {}

  /**
   * Stages, as {@link #agent}, the creation of a retro in the calendar "work" kept in {@code workIcs}, and writes
   * the event into that file as an earlier approval would have before the hub stopped without recording the answer.
   */
  Written createWrittenBeforeItsAnswer(Path workIcs) throws IOException {
    long decision = invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - Retro",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();
    String written = IcsText.withEvent(Files.readString(workIcs), ProposalCommits.createdEvent(hub.decisions().get(decision).orElseThrow()), null);
    Files.writeString(workIcs, written);
    return new Written(decision, written);
  }

  /** Invokes {@code operation} as {@code actor}, its input given as keys and values. */
  JsonNode invoke(String operation, Actor actor, Object... keyValues) {
    return invoke(hub, operation, actor, keyValues);
  }

  private static JsonNode invoke(Hub hub, String operation, Actor actor, Object... keyValues) {
    return hub.operations().invoke(operation, actor, Json.tree(HttpTestClient.map(keyValues)));
  }

  @Override
  public void close() {
    hub.close();
  }
}
