package dev.roundhouse.workspace;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Task branch names: {@code <prefix><id>-<slug of title>}, the slug lower-case ASCII words joined by dashes
 * and cut at 40 characters on a word boundary, so {@code "Fix the login page!"} in task 12 becomes
 * {@code roundhouse/12-fix-the-login-page}.
 *
 * <p>Stateless; thread-safe.
 */
final class BranchNames {
  private static final int SLUG_MAX = 40;

  private BranchNames() {}

  static String branch(String prefix, long taskId, String title) {
    String slug = slug(title);
    return prefix + taskId + (slug.isEmpty() ? "" : "-" + slug);
  }

  static String slug(String title) {
    String ascii = Normalizer.normalize(title == null ? "" : title, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
    String slug = ascii.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (slug.length() > SLUG_MAX) {
      int cut = slug.lastIndexOf('-', SLUG_MAX);
      slug = slug.substring(0, cut > 10 ? cut : SLUG_MAX).replaceAll("-+$", "");
    }
    return slug;
  }

  /** A project name as one safe folder name. */
  static String folder(String project) {
    String name = project.strip().replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^[.-]+", "");
    return name.isEmpty() ? "project" : name;
  }
}
