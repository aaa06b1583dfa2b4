package dev.roundhouse.hub.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * Who did something: the user, an agent working on a task, an external client, or the scheduler. Every write
 * records its actor. The text form ({@code user}, {@code agent:42}, {@code client:cursor}, {@code scheduler})
 * is what the store keeps and what events carry.
 *
 * <p>Immutable and thread-safe.
 */
public record Actor(Kind kind, Long taskId, String client) {

  /** The kinds of actor. */
  public enum Kind {
    USER,
    AGENT,
    CLIENT,
    SCHEDULER
  }

  public static final Actor USER = new Actor(Kind.USER, null, null);
  public static final Actor SCHEDULER = new Actor(Kind.SCHEDULER, null, null);

  public Actor {
    Objects.requireNonNull(kind, "kind");
    if (kind == Kind.AGENT && taskId == null) {
      throw new IllegalArgumentException("an agent actor needs the task it works on");
    }
    if (kind == Kind.CLIENT && (client == null || client.isBlank())) {
      throw new IllegalArgumentException("a client actor needs a client name");
    }
  }

  /** The agent running a turn on task {@code taskId}. */
  public static Actor agent(long taskId) {
    return new Actor(Kind.AGENT, taskId, null);
  }

  /** An external client (an MCP client, a script) known by {@code name}. */
  public static Actor client(String name) {
    return new Actor(Kind.CLIENT, null, name);
  }

  public boolean isAgent() {
    return kind == Kind.AGENT;
  }

  /** True when this actor is the agent working on {@code task}. */
  public boolean isAgentOf(long task) {
    return kind == Kind.AGENT && taskId == task;
  }

  /** Parses the text form written by {@link #toString()}. */
  @JsonCreator
  public static Actor parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("no actor");
    }
    if (text.equals("user")) {
      return USER;
    }
    if (text.equals("scheduler")) {
      return SCHEDULER;
    }
    if (text.startsWith("agent:")) {
      try {
        return agent(Long.parseLong(text.substring("agent:".length())));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad agent actor '" + text + "': expected agent:<task id>");
      }
    }
    if (text.startsWith("client:")) {
      return client(text.substring("client:".length()));
    }
    throw new IllegalArgumentException("unknown actor '" + text + "'");
  }

  @JsonValue
  @Override
  public String toString() {
    return switch (kind) {
      case USER -> "user";
      case SCHEDULER -> "scheduler";
      case AGENT -> "agent:" + taskId;
      case CLIENT -> "client:" + client;
    };
  }
}
