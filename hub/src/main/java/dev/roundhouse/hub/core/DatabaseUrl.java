package dev.roundhouse.hub.core;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where a PostgreSQL store lives: {@code ROUNDHOUSE_DATABASE_URL} (or {@code serve --database}), such as
 * {@code postgresql://roundhouse@db.internal:5432/roundhouse?sslmode=require}. The password comes from the
 * URL, or {@code ROUNDHOUSE_DATABASE_PASSWORD}, or the file named by {@code ROUNDHOUSE_DATABASE_PASSWORD_FILE}
 * (its first line); it is never part of {@link #toString()} or {@link #redacted()}, so it never reaches a log.
 *
 * @param jdbcUrl the JDBC URL, without user or password ({@code jdbc:postgresql://host:port/db?params})
 * @param user the role to log in as; null to let the driver pick (the operating-system user)
 * @param password null when none was given (trust or peer authentication)
 */
public record DatabaseUrl(String jdbcUrl, String user, String password) {

  public DatabaseUrl {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
  }

  /**
   * Parses {@code url} ({@code postgresql://}, {@code postgres://} or {@code jdbc:postgresql://}), taking a
   * password the URL lacks from {@code env}.
   */
  public static DatabaseUrl parse(String url, Map<String, String> env) {
    String text = url.strip();
    String rest;
    if (text.startsWith("jdbc:postgresql://")) {
      rest = text.substring("jdbc:postgresql://".length());
    } else if (text.startsWith("postgresql://")) {
      rest = text.substring("postgresql://".length());
    } else if (text.startsWith("postgres://")) {
      rest = text.substring("postgres://".length());
    } else {
      throw new RoundhouseException.InvalidInput(
          "the database URL must start with postgresql:// (as in postgresql://user@host:5432/roundhouse); got "
              + schemeOf(text));
    }
    URI uri;
    try {
      uri = new URI("postgresql://" + rest);
    } catch (URISyntaxException e) {
      throw new RoundhouseException.InvalidInput("the database URL is malformed: " + e.getReason());
    }
    if (uri.getHost() == null || uri.getHost().isBlank()) {
      throw new RoundhouseException.InvalidInput("the database URL names no host (postgresql://user@HOST:5432/db)");
    }
    String database = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("^/", "");
    if (database.isBlank()) {
      throw new RoundhouseException.InvalidInput("the database URL names no database (postgresql://user@host:5432/DB)");
    }
    String user = null;
    String password = null;
    if (uri.getRawUserInfo() != null) {
      String info = uri.getRawUserInfo();
      int colon = info.indexOf(':');
      user = decode(colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? null : decode(info.substring(colon + 1));
    }
    if (password == null) {
      password = passwordFromEnvironment(env);
    }
    String jdbc = "jdbc:postgresql://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "") + "/" + database
        + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    return new DatabaseUrl(jdbc, user == null || user.isEmpty() ? null : user, password);
  }

  private static String passwordFromEnvironment(Map<String, String> env) {
    String direct = env.get("ROUNDHOUSE_DATABASE_PASSWORD");
    if (direct != null && !direct.isEmpty()) {
      return direct;
    }
    String file = env.get("ROUNDHOUSE_DATABASE_PASSWORD_FILE");
    if (file == null || file.isBlank()) {
      return null;
    }
    try {
      String content = Files.readString(Path.of(file.strip()), StandardCharsets.UTF_8);
      int newline = content.indexOf('\n');
      return (newline < 0 ? content : content.substring(0, newline)).strip();
    } catch (IOException e) {
      throw new RoundhouseException.InvalidInput(
          "cannot read ROUNDHOUSE_DATABASE_PASSWORD_FILE " + file + ": " + e.getMessage());
    }
  }

  private static String decode(String part) {
    return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static String schemeOf(String text) {
    int colon = text.indexOf(':');
    return colon < 0 ? "no scheme" : "'" + text.substring(0, colon) + ":'";
  }

  /** The same database with {@code schema} first on the search path ({@code currentSchema}), for a scratch run. */
  public DatabaseUrl inSchema(String schema) {
    return new DatabaseUrl(jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema, user, password);
  }

  /** The URL with the user but never the password: what logs, {@code doctor} and errors show. */
  public String redacted() {
    String rest = jdbcUrl.substring("jdbc:".length());
    return user == null ? rest : rest.replaceFirst("://", "://" + user + "@");
  }

  @Override
  public String toString() {
    return redacted();
  }
}
