package dev.roundhouse.hub.ops;

import dev.roundhouse.hub.core.Actor;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One named entry of the hub's write and query surface. Every face (HTTP, MCP, LSP, ACP, CLI) calls
 * operations through the {@link OperationRegistry}, so there is exactly one implementation of each. Input
 * and output are Java records; their JSON schemas are derived from them.
 *
 * <p>The handler receives the {@link Actor} and applies that actor's rules itself. Immutable.
 *
 * @param name snake_case, at most 64 characters, so model APIs accept it as a tool name
 */
public record Operation<I, O>(
    String name,
    String description,
    Class<I> inputType,
    Class<O> outputType,
    OperationAnnotations annotations,
    Handler<I, O> handler) {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

  /** Runs the operation for an actor. */
  @FunctionalInterface
  public interface Handler<I, O> {
    O apply(Actor actor, I input);
  }

  public Operation {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("operation name must match " + NAME + ": " + name);
    }
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(inputType, "inputType");
    Objects.requireNonNull(outputType, "outputType");
    Objects.requireNonNull(annotations, "annotations");
    Objects.requireNonNull(handler, "handler");
  }

  public static <I, O> Operation<I, O> of(
      String name,
      String description,
      Class<I> inputType,
      Class<O> outputType,
      OperationAnnotations annotations,
      Handler<I, O> handler) {
    return new Operation<>(name, description, inputType, outputType, annotations, handler);
  }
}
