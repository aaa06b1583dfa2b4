package dev.roundhouse.hub.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The registry. An operation's JSON Schemas (generated from its input and output records) and its input validator
 * are made the first time they are needed (the operation is listed, described or called), not when it is
 * registered: the hub registers about 90 operations at start, and generating and compiling their schemas was half
 * of {@code serve}'s own start (docs/performance.md). A type the generator cannot describe therefore fails at the
 * first list, which every face does (tests list every operation).
 *
 * <p>Thread-safe: registrations go into a concurrent map; an entry's schemas are published once through an
 * {@link AtomicReference} (two threads that need them at once may both make them; the first published wins, and
 * both are equal).
 */
final class RealOperationRegistry implements OperationRegistry {
  private static final JsonSchemaFactory VALIDATORS =
      JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  private final Schemas schemas = new Schemas();
  private final ConcurrentHashMap<String, Entry<?, ?>> entries = new ConcurrentHashMap<>();

  /** What an operation's schemas make: its descriptor and its input validator. */
  private record Compiled(OperationDescriptor descriptor, JsonSchema validator) {}

  private final class Entry<I, O> {
    private final Operation<I, O> operation;
    private final AtomicReference<Compiled> compiled = new AtomicReference<>();

    Entry(Operation<I, O> operation) {
      this.operation = operation;
    }

    Operation<I, O> operation() {
      return operation;
    }

    OperationDescriptor descriptor() {
      return compiled().descriptor();
    }

    JsonSchema validator() {
      return compiled().validator();
    }

    private Compiled compiled() {
      Compiled known = compiled.get();
      if (known != null) {
        return known;
      }
      ObjectNode input = schemas.schemaOf(operation.inputType());
      ObjectNode output = schemas.schemaOf(operation.outputType());
      OperationDescriptor descriptor =
          new OperationDescriptor(
              operation.name(), operation.description(), input, output, operation.annotations());
      Compiled made = new Compiled(descriptor, VALIDATORS.getSchema(input));
      Compiled first = compiled.compareAndExchange(null, made);
      return first != null ? first : made;
    }
  }

  @Override
  public void register(Operation<?, ?> operation) {
    if (entries.putIfAbsent(operation.name(), new Entry<>(operation)) != null) {
      throw new IllegalStateException("operation registered twice: " + operation.name());
    }
  }

  @Override
  public List<OperationDescriptor> list() {
    return entries.values().stream()
        .sorted(Comparator.comparing(entry -> entry.operation().name()))
        .map(Entry::descriptor)
        .toList();
  }

  @Override
  public Optional<OperationDescriptor> describe(String name) {
    return Optional.ofNullable(entries.get(name)).map(Entry::descriptor);
  }

  @Override
  public JsonNode invoke(String name, Actor actor, JsonNode input) {
    Entry<?, ?> entry = entry(name);
    JsonNode arguments = input == null || input.isNull() ? Json.mapper().createObjectNode() : input;
    return Json.tree(run(entry, actor, bind(entry, arguments)));
  }

  @Override
  public String invokeToJson(String name, Actor actor, JsonNode input) {
    Entry<?, ?> entry = entry(name);
    JsonNode arguments = input == null || input.isNull() ? Json.mapper().createObjectNode() : input;
    return Json.write(run(entry, actor, bind(entry, arguments)));
  }

  @Override
  public <O> O call(String name, Actor actor, Object input, Class<O> outputType) {
    Entry<?, ?> entry = entry(name);
    Object typed =
        entry.operation().inputType().isInstance(input)
            ? input
            : bind(entry, Json.tree(input == null ? Json.mapper().createObjectNode() : input));
    return outputType.cast(run(entry, actor, typed));
  }

  private Entry<?, ?> entry(String name) {
    Entry<?, ?> entry = entries.get(name);
    if (entry == null) {
      throw new RoundhouseException.NotFound(
          "unknown_operation", "no operation named '" + name + "'; list them with GET /api/ops");
    }
    return entry;
  }

  private static Object bind(Entry<?, ?> entry, JsonNode arguments) {
    String name = entry.operation().name();
    if (!arguments.isObject()) {
      throw new RoundhouseException.InvalidInput(
          "schema_violation",
          name + ": the input must be a JSON object, not " + arguments.getNodeType().toString().toLowerCase());
    }
    String unstorable = Json.unstorableText(arguments);
    if (unstorable != null) {
      throw new RoundhouseException.InvalidInput(name + ": " + unstorable);
    }
    Set<ValidationMessage> problems = entry.validator().validate(arguments);
    if (!problems.isEmpty()) {
      String detail =
          problems.stream()
              .map(ValidationMessage::getMessage)
              .sorted()
              .collect(Collectors.joining("; "));
      throw new RoundhouseException.InvalidInput("schema_violation", name + ": " + detail);
    }
    try {
      return Json.mapper().treeToValue(arguments, entry.operation().inputType());
    } catch (JsonMappingException e) {
      String path =
          e.getPath().stream()
              .map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]")
              .collect(Collectors.joining("", "$", ""));
      throw new RoundhouseException.InvalidInput(
          "schema_violation", name + ": " + path + ": " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new RoundhouseException.InvalidInput(
          "schema_violation", name + ": " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      throw new RoundhouseException.InvalidInput("schema_violation", name + ": " + e.getMessage());
    }
  }

  @SuppressWarnings("unchecked")
  private static <I, O> O run(Entry<I, O> entry, Actor actor, Object input) {
    return entry.operation().handler().apply(actor, (I) input);
  }
}
