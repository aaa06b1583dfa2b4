package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.RoundhouseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** The {@code Category - SubCategory - Title} taxonomy of event titles. Stateless. */
final class Titles {
  private static final Pattern SEPARATOR = Pattern.compile("\\s+[-\u2013\u2014]\\s+|\\s*[\u2013\u2014]\\s*");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private Titles() {}

  /** A parsed title; {@link #text()} is the normalised form. */
  record Title(String category, String subCategory, String name) {
    String text() {
      return category + " - " + subCategory + " - " + name;
    }

    String categoryPath() {
      return category + " - " + subCategory;
    }
  }

  /** Any title, parsed if it follows the taxonomy. */
  static Optional<Title> parse(String raw) {
    if (raw == null) {
      return Optional.empty();
    }
    String[] parts = SEPARATOR.split(raw.strip(), 3);
    if (parts.length < 3) {
      return Optional.empty();
    }
    String category = capitalise(clean(parts[0]));
    String sub = capitalise(clean(parts[1]));
    String name = clean(parts[2]);
    if (category.isEmpty() || sub.isEmpty() || name.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Title(category, sub, name));
  }

  /** A staged title: must follow the taxonomy; returned normalised. */
  static Title require(String raw) {
    return parse(raw).orElseThrow(() -> new RoundhouseException.InvalidInput(
        "title '" + raw + "' does not follow 'Category - SubCategory - Title' (for example 'Work - Meetings - Sprint review')"));
  }

  private static String clean(String part) {
    return SPACES.matcher(part.strip()).replaceAll(" ");
  }

  private static String capitalise(String word) {
    return word.isEmpty() ? word : word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1);
  }
}
