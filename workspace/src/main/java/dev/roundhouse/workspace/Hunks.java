package dev.roundhouse.workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits one file's unified diff into its hunks. A content line never starts with {@code @@} (it starts
 * with a space, {@code +}, {@code -} or {@code \}), so the split is unambiguous.
 *
 * <p>Stateless; thread-safe.
 */
final class Hunks {
  private static final Pattern HEADER = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");

  private Hunks() {}

  static List<Hunk> parse(String fileDiff) {
    List<Hunk> hunks = new ArrayList<>();
    StringBuilder text = null;
    Matcher header = null;
    for (String line : fileDiff.split("(?<=\n)")) {
      Matcher next = HEADER.matcher(line);
      if (next.find()) {
        add(hunks, header, text);
        header = next;
        text = new StringBuilder();
      }
      if (text != null) {
        text.append(line);
      }
    }
    add(hunks, header, text);
    return hunks;
  }

  private static void add(List<Hunk> hunks, Matcher header, StringBuilder text) {
    if (header == null) {
      return;
    }
    hunks.add(new Hunk(Integer.parseInt(header.group(1)), count(header.group(2)), Integer.parseInt(header.group(3)),
        count(header.group(4)), text.toString()));
  }

  private static int count(String group) {
    return group == null ? 1 : Integer.parseInt(group);
  }
}
