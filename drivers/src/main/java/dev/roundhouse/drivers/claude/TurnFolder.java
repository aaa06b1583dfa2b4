package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.spi.AgentEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A throwaway folder for one turn (mode 0700): the MCP configuration that carries the hub's task-scoped
 * token (and the servers a face gave the turn, with their env and headers), and the text appended to the system prompt, each a 0600 file, so neither appears in the CLI's
 * argument list. Deleted when the turn ends.
 *
 * <p>Not thread-safe: the turn's thread creates, reads and closes it.
 */
final class TurnFolder implements AutoCloseable {
  /** The MCP server name the hub's endpoint gets; the agent sees its tools as {@code mcp__roundhouse__*}. */
  static final String MCP_SERVER = "roundhouse";

  private final Path folder;

  private TurnFolder(Path folder) {
    this.folder = folder;
  }

  static TurnFolder create() {
    try {
      return new TurnFolder(Files.createTempDirectory("roundhouse-claude-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary folder for the Claude Code turn", e);
    }
  }

  Path path() {
    return folder;
  }

  /** Writes {@code mcp.json} naming the hub's endpoint as the http server {@value #MCP_SERVER}. */
  Path writeMcpConfig(AgentEndpoint endpoint) {
    return writeMcpConfig(List.of(), endpoint).orElseThrow();
  }

  /**
   * Writes {@code mcp.json}: the hub's endpoint as the http server {@value #MCP_SERVER}, and the servers a
   * face gave the turn under their own names (stdio: {@code command}, {@code args}, {@code env}; http:
   * {@code url}, {@code headers}); empty when there is neither.
   *
   * @param hubEndpoint the hub's endpoint, or null when the hub serves none
   */
  Optional<Path> writeMcpConfig(List<McpServerSpec> extra, AgentEndpoint hubEndpoint) {
    Optional<AgentEndpoint> endpoint = Optional.ofNullable(hubEndpoint);
    if (endpoint.isEmpty() && extra.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode config = Json.mapper().createObjectNode();
    ObjectNode servers = config.putObject("mcpServers");
    endpoint.ifPresent(hub -> {
      ObjectNode server = servers.putObject(MCP_SERVER);
      server.put("type", "http");
      server.put("url", hub.url().toString());
      server.putObject("headers").put("Authorization", "Bearer " + hub.bearerToken());
    });
    for (McpServerSpec spec : extra) {
      ObjectNode server = servers.putObject(spec.name());
      if (spec.transport().equals("http")) {
        server.put("type", "http");
        server.put("url", spec.url());
        spec.headers().forEach(server.putObject("headers")::put);
      } else {
        server.put("type", "stdio");
        server.put("command", spec.command());
        spec.args().forEach(server.putArray("args")::add);
        spec.env().forEach(server.putObject("env")::put);
      }
    }
    return Optional.of(write("mcp.json", Json.write(config)));
  }

  /** Writes the text to append to the system prompt; empty when there is none. */
  Optional<Path> writeSystemPrompt(String text) {
    return text == null || text.isBlank() ? Optional.empty() : Optional.of(write("system-prompt.md", text));
  }

  private Path write(String name, String content) {
    Path file = folder.resolve(name);
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, content, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  @Override
  public void close() {
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // already gone
    }
  }
}
