package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.core.RoundhouseException;
import java.net.URI;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An MCP server a face hands to a task's agent for a turn, next to the hub's own tools (an ACP client's
 * {@code mcpServers}): a stdio server ({@code command}, {@code args}, {@code env}) or an HTTP one ({@code url},
 * {@code headers}). The hub never stores one: {@code env} and {@code headers} may carry secrets, so only
 * {@link #name()} and {@link #transport()} reach the event log, and {@link #toString()} prints neither
 * values of {@code env} nor of {@code headers}. Immutable.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record McpServerSpec(
    @JsonProperty(required = true) @JsonPropertyDescription("The server's name; the agent sees its tools under it") String name,
    @JsonPropertyDescription("A stdio server: the command to start") String command,
    @JsonPropertyDescription("A stdio server: its arguments") List<String> args,
    @JsonPropertyDescription("A stdio server: variables to add to its environment (never stored)") Map<String, String> env,
    @JsonPropertyDescription("An HTTP (Streamable HTTP) server: its URL") String url,
    @JsonPropertyDescription("An HTTP server: headers to send with every request (never stored)") Map<String, String> headers) {

  /** The name the hub's own MCP server has for every agent; no face's server may take it. */
  public static final String HUB_SERVER_NAME = "roundhouse";

  public McpServerSpec {
    args = args == null ? List.of() : List.copyOf(args);
    env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
    headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /** A stdio server. */
  public static McpServerSpec stdio(String name, String command, List<String> args, Map<String, String> env) {
    return new McpServerSpec(name, command, args, env, null, null);
  }

  /** An HTTP server. */
  public static McpServerSpec http(String name, String url, Map<String, String> headers) {
    return new McpServerSpec(name, null, null, null, url, headers);
  }

  /** {@code stdio} or {@code http}. */
  @JsonIgnore
  public String transport() {
    return url != null ? "http" : "stdio";
  }

  /**
   * Checks a list a caller gave: every server named, unique names, not the hub's own name, exactly one of a
   * command and an http(s) URL.
   *
   * @return the list (empty for null)
   * @throws RoundhouseException.InvalidInput naming the server and what is wrong with it
   */
  public static List<McpServerSpec> checked(List<McpServerSpec> servers) {
    if (servers == null) {
      return List.of();
    }
    Set<String> names = new HashSet<>();
    for (McpServerSpec server : servers) {
      if (server == null || server.name() == null || server.name().isBlank()) {
        throw new RoundhouseException.InvalidInput("every MCP server needs a name");
      }
      String name = server.name();
      if (name.equalsIgnoreCase(HUB_SERVER_NAME)) {
        throw new RoundhouseException.InvalidInput("MCP server name '" + name + "' is the hub's own server; give yours another name");
      }
      if (!names.add(name)) {
        throw new RoundhouseException.InvalidInput("two MCP servers are named '" + name + "'");
      }
      boolean hasCommand = server.command() != null && !server.command().isBlank();
      boolean hasUrl = server.url() != null && !server.url().isBlank();
      if (hasCommand == hasUrl) {
        throw new RoundhouseException.InvalidInput("MCP server '" + name + "' needs either a command (stdio) or a url (http), not "
            + (hasCommand ? "both" : "neither"));
      }
      if (hasUrl) {
        String scheme;
        try {
          scheme = URI.create(server.url()).getScheme();
        } catch (IllegalArgumentException e) {
          throw new RoundhouseException.InvalidInput("MCP server '" + name + "' has a url that is not a URI: " + e.getMessage());
        }
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
          throw new RoundhouseException.InvalidInput("MCP server '" + name + "' needs an http or https url, not " + server.url());
        }
      }
    }
    return List.copyOf(servers);
  }

  /** The server's name and transport only: what the transcript may say about it. */
  public Map<String, String> summary() {
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put("name", name);
    summary.put("transport", transport());
    return Collections.unmodifiableMap(summary);
  }

  /** Never prints a value of {@code env} or {@code headers}. */
  @Override
  public String toString() {
    return "McpServerSpec[" + name + ", " + (url != null ? url + ", headers " + headers.keySet() : command + " (" + args.size() + " args), env " + env.keySet()) + "]";
  }
}
