package dev.roundhouse.app;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Compact aligned text: each column as wide as its widest cell, two spaces between columns, the last column
 * unpadded, no trailing spaces. Not thread-safe: fill it, then print it.
 */
final class Table {
  private final List<String[]> rows = new ArrayList<>();
  private int columns;

  /** Adds a row; null cells print as empty. */
  Table row(Object... cells) {
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = cells[i] == null ? "" : cells[i].toString();
    }
    rows.add(row);
    columns = Math.max(columns, row.length);
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void print(PrintWriter out) {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        if (i > 0) {
          line.append("  ");
        }
        line.append(row[i]);
        if (i < row.length - 1) {
          line.append(" ".repeat(widths[i] - row[i].length()));
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
