package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Objects;

/**
 * The calendar conversation's system prompt: the bundled {@value #RESOURCE}, unless the user put their own
 * in {@code $ROUNDHOUSE_HOME/}{@value #FILE}. Read at every turn, so an edit needs no restart. The version is
 * the one its first line names ({@code … prompt version 1}). Thread-safe (stateless beyond two paths).
 */
final class CalendarPrompt {
  /** The override's file name in the Roundhouse home. */
  static final String FILE = "calendar-prompt.md";
  /** The bundled prompt, on the class path. */
  static final String RESOURCE = "/dev/roundhouse/calendaragent/calendar-prompt.md";

  private static final Pattern VERSION = Pattern.compile("(?i)\\bversion\\s+([0-9][0-9A-Za-z.-]*)");
  private static final int MAX_CHARS = 64 * 1024;

  /**
   * One reading of the prompt.
   *
   * @param text the prompt
   * @param version the version its first line names, or null if it names none
   * @param source {@code bundled}, or {@code override}
   * @param path the override's path (whether or not it exists)
   * @param bundledVersion the bundled prompt's version, to compare an override with
   */
  record Reading(String text, String version, String source, String path, String bundledVersion) {}

  /**
   * What the override's file looks like from outside, to notice a change without reading it: a new stamp
   * means the prompt in effect may have changed.
   *
   * @param exists whether the override exists
   * @param modified its modification time (null when absent)
   * @param size its size in bytes (0 when absent)
   */
  record Stamp(boolean exists, FileTime modified, long size) {
    static final Stamp ABSENT = new Stamp(false, null, 0);
  }

  private final Path override;

  CalendarPrompt(Path home) {
    this.override = home.resolve(FILE);
  }

  /** The override's {@link Stamp} now. */
  Stamp stamp() {
    try {
      BasicFileAttributes attributes = Files.readAttributes(override, BasicFileAttributes.class);
      return new Stamp(true, attributes.lastModifiedTime(), attributes.size());
    } catch (NoSuchFileException e) {
      return Stamp.ABSENT;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look at the calendar prompt " + override, e);
    }
  }

  /** The prompt in effect now. */
  Reading read() {
    String bundled = bundled();
    String bundledVersion = version(bundled).orElse(null);
    if (!Files.isRegularFile(override)) {
      return new Reading(bundled, bundledVersion, "bundled", override.toString(), bundledVersion);
    }
    String text;
    try {
      text = Files.readString(override, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the calendar prompt " + override, e);
    }
    if (text.isBlank()) {
      throw new RoundhouseException.InvalidInput("the calendar prompt " + override + " is empty; delete it to use the bundled one");
    }
    if (text.length() > MAX_CHARS) {
      throw new RoundhouseException.InvalidInput("the calendar prompt " + override + " has " + text.length()
          + " characters; at most " + MAX_CHARS);
    }
    return new Reading(text, version(text).orElse(null), "override", override.toString(), bundledVersion);
  }

  /** The prompt in effect, as {@code calendar_prompt} answers: with a note when an override's version differs. */
  CalendarOps.Prompt info() {
    Reading reading = read();
    String note = null;
    if (reading.source().equals("override") && !Objects.equals(reading.version(), reading.bundledVersion())) {
      note = "the override is " + (reading.version() == null ? "unversioned" : "version " + reading.version())
          + "; the bundled prompt is version " + reading.bundledVersion() + ": compare them when you upgrade";
    }
    return new CalendarOps.Prompt(reading.version(), reading.source(), reading.path(), reading.bundledVersion(), note, reading.text());
  }

  static String bundled() {
    try (InputStream in = CalendarPrompt.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the bundled calendar prompt " + RESOURCE + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The version the first line of {@code text} names. */
  static Optional<String> version(String text) {
    String first = text.strip().lines().findFirst().orElse("");
    Matcher matcher = VERSION.matcher(first);
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }
}
