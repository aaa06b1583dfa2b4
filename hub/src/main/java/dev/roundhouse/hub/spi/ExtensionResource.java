package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.core.Actor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.roundhouse.hub.core.RoundhouseException;

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
 * @param completer the values a template's variables can take, for clients that complete them (MCP
 *     {@code completion/complete}); null when there is nothing to offer (and always for a fixed URI)
 */
public record ExtensionResource(
    String uri, String name, String title, String description, String mimeType, String operation, Reader reader,
    Completer completer) {

  private static final Pattern VARIABLE = Pattern.compile("\\{([a-z][a-z0-9_]*)}");
  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*://\\S+");

  /** Reads a resource for a caller. */
  @FunctionalInterface
  public interface Reader {
    /**
     * The content of {@code uri} for {@code actor}; {@code variables} holds a template's values by name (empty
     * for a fixed URI).
     *
     * @throws RoundhouseException.NotFound naming what does not exist (an unknown calendar)
     */
    Contents read(Actor actor, String uri, Map<String, String> variables);
  }

  /** The values a template variable can take, for completion. */
  @FunctionalInterface
  public interface Completer {
    /** Every value of {@code variable} that {@code actor} may see; the face filters by what was typed. */
    List<String> values(Actor actor, String variable);
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

  /** A resource with no completion. */
  public ExtensionResource(
      String uri, String name, String title, String description, String mimeType, String operation, Reader reader) {
    this(uri, name, title, description, mimeType, operation, reader, null);
  }

  /** This resource, whose variables complete with {@code values}. */
  public ExtensionResource withCompleter(Completer values) {
    return new ExtensionResource(uri, name, title, description, mimeType, operation, reader, values);
  }

  /** This resource, read through {@code other} instead (a wrapper that audits, say), completion kept. */
  public ExtensionResource withReader(Reader other) {
    return new ExtensionResource(uri, name, title, description, mimeType, operation, other, completer);
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
