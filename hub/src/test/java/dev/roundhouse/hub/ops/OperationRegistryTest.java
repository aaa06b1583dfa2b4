package dev.roundhouse.hub.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.OperationCatalog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperationRegistryTest {
  enum Color {
    @JsonProperty("dark_red")
    DARK_RED,
    @JsonProperty("blue")
    BLUE
  }

  record Paint(@JsonProperty(required = true) String wallName, Color color, List<Integer> coats) {}

  record Painted(String summary) {}

  private final OperationRegistry registry = OperationRegistry.create();

  {
    registry.register(Operation.of("paint", "Paint a wall.", Paint.class, Painted.class, OperationAnnotations.UPDATE,
        (actor, in) -> new Painted(actor + " painted " + in.wallName() + " " + in.color() + " " + in.coats())));
  }

  private JsonNode invoke(String json) throws Exception {
    return registry.invoke("paint", Actor.USER, Json.mapper().readTree(json));
  }

  @Test
  void schemaIsDerivedFromTheRecordWithWireNames() {
    JsonNode schema = registry.describe("paint").orElseThrow().inputSchema();
    assertThat(schema.get("type").asText()).isEqualTo("object");
    assertThat(schema.get("properties").has("wall_name")).isTrue();
    assertThat(schema.get("required")).extracting(JsonNode::asText).containsExactly("wall_name");
    assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
    assertThat(schema.at("/properties/color/enum")).extracting(JsonNode::asText).containsExactly("dark_red", "blue");
    assertThat(schema.at("/properties/coats/items/type").asText()).isEqualTo("integer");
  }

  @Test
  void validInputRunsTheHandlerWithTheActor() throws Exception {
    JsonNode out = invoke("{\"wall_name\":\"north\",\"color\":\"dark_red\",\"coats\":[1,2]}");
    assertThat(out.get("summary").asText()).isEqualTo("user painted north DARK_RED [1, 2]");
  }

  @Test
  void invokeToJsonIsTheSameAnswerAsTextAndRefusesTheSame() throws Exception {
    String input = "{\"wall_name\":\"north\",\"color\":\"blue\"}";
    String text = registry.invokeToJson("paint", Actor.USER, Json.mapper().readTree(input));
    assertThat(text).isEqualTo(Json.write(invoke(input))).isEqualTo("{\"summary\":\"user painted north BLUE null\"}");
    assertThatThrownBy(() -> registry.invokeToJson("paint", Actor.USER, null))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("wall_name");
  }

  @Test
  void schemaViolationsNameTheField() {
    assertThatThrownBy(() -> invoke("{}"))
        .isInstanceOf(RoundhouseException.InvalidInput.class)
        .hasMessageContaining("paint: ")
        .hasMessageContaining("wall_name");
    assertThatThrownBy(() -> invoke("{\"wall_name\":\"n\",\"color\":\"green\"}"))
        .hasMessageContaining("$.color");
    assertThatThrownBy(() -> invoke("{\"wall_name\":\"n\",\"coats\":[\"x\"]}"))
        .hasMessageContaining("$.coats[0]");
    assertThatThrownBy(() -> invoke("{\"wall_name\":\"n\",\"colour\":\"blue\"}"))
        .hasMessageContaining("colour");
    assertThatThrownBy(() -> invoke("[1]"))
        .hasMessageContaining("must be a JSON object");
    assertThatThrownBy(() -> invoke("{\"wall_name\":5}"))
        .hasMessageContaining("$.wall_name");
  }

  /** A tree: with every schema inlined, the generator cannot describe it. */
  record Branch(String name, List<Branch> branches) {}

  @Test
  void schemasAreMadeWhenFirstNeededNotAtRegistration() {
    registry.register(Operation.of("grow", "Grow a tree.", Branch.class, Painted.class, OperationAnnotations.UPDATE, (a, in) -> new Painted(in.name())));
    // Registering did not generate the schema, so a type the generator cannot describe fails only when it is needed.
    assertThatThrownBy(() -> registry.describe("grow")).isInstanceOf(RuntimeException.class);
    assertThat(registry.describe("paint").orElseThrow().inputSchema().path("properties").has("wall_name")).isTrue();
    assertThat(registry.describe("paint").orElseThrow()).as("made once, then kept").isSameAs(registry.describe("paint").orElseThrow());
  }

  @Test
  void unknownOperationsAreNamed() {
    assertThatThrownBy(() -> registry.invoke("pant", Actor.USER, null))
        .isInstanceOf(RoundhouseException.NotFound.class)
        .hasMessageContaining("no operation named 'pant'");
  }

  @Test
  void namesMustSuitModelToolNamesAndBeUnique() {
    assertThatThrownBy(() -> Operation.of("Paint-Wall", "x", Paint.class, Painted.class, OperationAnnotations.READ, (a, i) -> null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> registry.register(Operation.of("paint", "again", Paint.class, Painted.class, OperationAnnotations.READ, (a, i) -> null)))
        .hasMessageContaining("registered twice");
  }

  @Test
  void everyHubOperationHasAnObjectSchemaAndTheNamesTheFacesRelyOn() {
    List<String> names = new ArrayList<>();
    for (OperationDescriptor op : OperationCatalog.describe()) {
      names.add(op.name());
      assertThat(op.inputSchema().get("type").asText()).as(op.name()).isEqualTo("object");
      assertThat(op.outputSchema().get("type").asText()).as(op.name()).isEqualTo("object");
      assertThat(op.description()).as(op.name()).isNotBlank();
      assertThat(op.inputSchema().toString()).as(op.name()).doesNotContain("$ref");
    }
    assertThat(names).contains(
        "project_create", "project_list", "project_get", "project_update", "task_create", "task_get",
        "task_list", "task_update", "task_move", "task_delete", "task_revert_edit", "tag_list", "tag_update");
  }

  @Test
  void instantsAreDateTimeStrings() {
    JsonNode createTask = OperationCatalog.describe().stream()
        .filter(op -> op.name().equals("task_create")).findFirst().orElseThrow().inputSchema();
    assertThat(createTask.at("/properties/start_at/type").asText()).isEqualTo("string");
    assertThat(createTask.at("/properties/start_at/format").asText()).isEqualTo("date-time");
    assertThat(createTask.at("/properties/blocked_by/items/type").asText()).isEqualTo("integer");
  }
}
