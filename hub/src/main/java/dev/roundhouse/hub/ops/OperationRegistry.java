package dev.roundhouse.hub.ops;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import java.util.List;
import java.util.Optional;

/**
 * The hub's operations by name. {@link #invoke} validates JSON input against the operation's schema
 * (naming the offending field), binds it, runs the handler and returns the output as JSON; it is what
 * every face calls.
 *
 * <p>Thread-safe.
 */
public interface OperationRegistry {

  /** Adds an operation; its name must be new. */
  void register(Operation<?, ?> operation);

  /** Every operation, sorted by name. */
  List<OperationDescriptor> list();

  Optional<OperationDescriptor> describe(String name);

  /**
   * Runs {@code name} for {@code actor}.
   *
   * @param input a JSON object, or null for no arguments
   * @throws dev.roundhouse.hub.core.RoundhouseException.NotFound with code {@code unknown_operation}
   * @throws dev.roundhouse.hub.core.RoundhouseException.InvalidInput with code {@code schema_violation} when
   *     the input does not match the schema
   */
  JsonNode invoke(String name, Actor actor, JsonNode input);

  /**
   * As {@link #invoke}, with the output written as JSON text straight from the operation's typed output (no
   * tree): for a face that only sends it on.
   */
  String invokeToJson(String name, Actor actor, JsonNode input);

  /** Runs {@code name} with typed input and output, for in-process callers. */
  <O> O call(String name, Actor actor, Object input, Class<O> outputType);

  static OperationRegistry create() {
    return new RealOperationRegistry();
  }
}
