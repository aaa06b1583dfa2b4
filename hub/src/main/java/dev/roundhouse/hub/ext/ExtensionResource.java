package dev.roundhouse.hub.ext;

import dev.roundhouse.hub.Actor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource an extension offers to the faces that serve resources (MCP's {@code resources/list},
 * {@code resources/templates/list} and {@code resources/read}): a fixed URI such as
 * {@code roundhouse://calendars}, or a URI template such as {@code roundhouse://calendars/{calendar}} whose
 * variables each stand for one path segment (no {@code /}, {@code ?} or {@code #}).
 *
 * <p>Immutable; the reader must be thread-safe.
 *
 * @param uri the URI, or the template with {@code {name}} variables ({@code name}: lower case, digits, {@code _})
 * @param name a short name, such as {@code calendars}
 * @param title a human title
 * @param description what it holds
 * @param mimeType what {@link Reader#read} returns, such as {@code application/json}
 * @param operation the operation whose rules it follows: a caller that is not offered this operation (an
 *     agent whose task no extension gives it to) may not read it either; null when any caller may
 * @param reader reads it for a caller
 */
public record ExtensionResource(
    String uri, String name, String title, String description, String mimeType, String operation, Reader reader) {

  private static final Pattern VARIABLE = Pattern.compile("\\{([a-z][a-z0-9_]*)}");
  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*://\\S+");

  /** Reads a resource for a caller. */
  @FunctionalInterface
  public interface Reader {
    /**
     * The content of {@code uri} for {@code actor}; {@code variables} holds a template's values by name (empty
     * for a fixed URI).
     *
     * @throws dev.roundhouse.hub.RoundhouseException.NotFound naming what does not exist (an unknown calendar)
     */
    Contents read(Actor actor, String uri, Map<String, String> variables);
  }

  /**
   * What a read returns.
   *
   * @param mimeType its type
   * @param text the content
   * @param meta facts about this reading for clients that want them (MCP {@code _meta}), such as a version; may be empty
   */
  public record Contents(String mimeType, String text, Map<String, String> meta) {
    public Contents {
      Objects.requireNonNull(mimeType, "mimeType");
      Objects.requireNonNull(text, "text");
      meta = Map.copyOf(meta);
    }
  }

  public ExtensionResource {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(mimeType, "mimeType");
    Objects.requireNonNull(reader, "reader");
    if (!SCHEME.matcher(uri).matches()) {
      throw new IllegalArgumentException("resource URI '" + uri + "' is not scheme://path");
    }
    String rest = VARIABLE.matcher(uri).replaceAll("");
    if (rest.contains("{") || rest.contains("}")) {
      throw new IllegalArgumentException("resource URI template '" + uri + "' may hold only {name} variables (lower case, digits, _)");
    }
  }

  /** Whether {@link #uri} is a template (has variables). */
  public boolean isTemplate() {
    return VARIABLE.matcher(uri).find();
  }

  /** The template's variables in order; empty for a fixed URI. */
  public List<String> variables() {
    List<String> names = new ArrayList<>();
    Matcher matcher = VARIABLE.matcher(uri);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }

  /** The variables' values if {@code candidate} is this URI or matches this template. */
  public Optional<Map<String, String>> match(String candidate) {
    if (!isTemplate()) {
      return uri.equals(candidate) ? Optional.of(Map.of()) : Optional.empty();
    }
    StringBuilder regex = new StringBuilder();
    Matcher matcher = VARIABLE.matcher(uri);
    int last = 0;
    while (matcher.find()) {
      regex.append(Pattern.quote(uri.substring(last, matcher.start()))).append("([^/?#]+)");
      last = matcher.end();
    }
    regex.append(Pattern.quote(uri.substring(last)));
    Matcher values = Pattern.compile(regex.toString()).matcher(candidate);
    if (!values.matches()) {
      return Optional.empty();
    }
    Map<String, String> out = new LinkedHashMap<>();
    List<String> names = variables();
    for (int i = 0; i < names.size(); i++) {
      out.put(names.get(i), values.group(i + 1));
    }
    return Optional.of(out);
  }
}
