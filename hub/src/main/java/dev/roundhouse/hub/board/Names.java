package dev.roundhouse.hub.board;

import dev.roundhouse.hub.core.RoundhouseException.InvalidInput;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Validation and normalisation of user-supplied text: names, titles, tags. Stateless. */
final class Names {
  static final int MAX_TITLE = 300;
  static final int MAX_TEXT = 100_000;
  static final int MAX_TAGS = 32;
  private static final Pattern PROJECT_NAME = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} ._-]{0,63}");
  private static final Pattern TAG = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}._/:-]{0,47}");
  private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}");

  private Names() {}

  static String projectName(String raw) {
    String name = required("name", raw);
    if (!PROJECT_NAME.matcher(name).matches()) {
      throw new InvalidInput(
          "project name '"
              + name
              + "' must be 1-64 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit");
    }
    if (name.chars().allMatch(Character::isDigit)) {
      throw new InvalidInput("project name '" + name + "' must not be all digits (it would read as an id)");
    }
    return name;
  }

  static String title(String raw) {
    String title = required("title", raw);
    if (title.length() > MAX_TITLE) {
      throw new InvalidInput("title is " + title.length() + " characters; at most " + MAX_TITLE);
    }
    return title;
  }

  /** Null stays null (no change); empty or blank clears (returns ""). */
  static String optionalText(String field, String raw) {
    if (raw == null) {
      return null;
    }
    if (raw.length() > MAX_TEXT) {
      throw new InvalidInput(field + " is " + raw.length() + " characters; at most " + MAX_TEXT);
    }
    return raw.strip();
  }

  static String tag(String raw) {
    String tag = raw == null ? "" : raw.strip().toLowerCase(Locale.ROOT);
    if (!TAG.matcher(tag).matches()) {
      throw new InvalidInput(
          "tag '"
              + raw
              + "' must be 1-48 letters, digits, '.', '_', '/', ':' or '-', starting with a letter or digit");
    }
    return tag;
  }

  static List<String> tags(List<String> raw) {
    Set<String> tags = new LinkedHashSet<>();
    for (String tag : raw) {
      tags.add(tag(tag));
    }
    if (tags.size() > MAX_TAGS) {
      throw new InvalidInput("a task carries at most " + MAX_TAGS + " tags, not " + tags.size());
    }
    return tags.stream().sorted().toList();
  }

  static String color(String raw) {
    if (raw == null) {
      return null;
    }
    if (!COLOR.matcher(raw).matches()) {
      throw new InvalidInput("color '" + raw + "' must look like '#d73a4a'");
    }
    return raw.toLowerCase(Locale.ROOT);
  }

  static String required(String field, String raw) {
    if (raw == null || raw.isBlank()) {
      throw new InvalidInput(field + " must not be empty");
    }
    return raw.strip();
  }

  /** "" means clear: returns null; otherwise the stripped text. */
  static String emptyToNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }

  /** Patch semantics for optional text: null keeps, "" clears, anything else replaces. */
  static String patch(String current, String update) {
    if (update == null) {
      return current;
    }
    return update.isBlank() ? null : update.strip();
  }
}
