package dev.roundhouse.lspbridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The ready-made editor files in {@code intellij-plugin/} have the shapes their hosts read. */
class EditorSetupFilesTest {
  private static final Path DIR = Path.of("..", "intellij-plugin");

  private static JsonNode read(String file) throws Exception {
    return Json.mapper().readTree(Files.readString(DIR.resolve(file)));
  }

  @Test
  void jetbrainsAcpJsonRunsRoundhouseAcp() throws Exception {
    JsonNode server = read("acp.json").path("agent_servers").path("Roundhouse");
    assertThat(server.path("command").asText()).isEqualTo("roundhouse");
    assertThat(server.path("args").toString()).isEqualTo("[\"acp\"]");
  }

  @Test
  void zedEntryIsACustomAgentServer() throws Exception {
    JsonNode server = read("zed-settings.json").path("agent_servers").path("Roundhouse");
    assertThat(server.path("type").asText()).isEqualTo("custom");
    assertThat(server.path("command").asText()).isEqualTo("roundhouse");
    assertThat(server.path("args").toString()).isEqualTo("[\"acp\"]");
  }

  @Test
  void lsp4ijTemplateRunsRoundhouseLspForMappedFiles() throws Exception {
    JsonNode template = read("lsp4ij-template/template.json");
    assertThat(template.path("id").asText()).isEqualTo("roundhouse");
    assertThat(template.path("name").asText()).isNotBlank();
    assertThat(template.path("programArgs").path("default").asText()).isEqualTo("roundhouse lsp");
    assertThat(template.path("fileTypeMappings").isArray()).isTrue();
    assertThat(template.path("fileTypeMappings")).isNotEmpty().allSatisfy(mapping -> {
      // LSP4IJ maps fileType.name to an IntelliJ file type of that name, which must exist: a made-up name maps
      // nothing (and is shown as an unknown type). File-name patterns need no file type.
      assertThat(mapping.path("fileType").has("name")).as("a fileType name (must name an existing IntelliJ file type)").isFalse();
      assertThat(mapping.path("fileType").path("patterns")).isNotEmpty();
      assertThat(mapping.path("languageId").asText()).isNotBlank();
    });
    for (String optional : new String[] {"settings.json", "initializationOptions.json", "clientSettings.json"}) {
      assertThat(read("lsp4ij-template/" + optional).isObject()).as(optional).isTrue();
    }
  }
}
