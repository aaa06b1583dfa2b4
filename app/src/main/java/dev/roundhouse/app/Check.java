package dev.roundhouse.app;

/**
 * One line of {@code roundhouse doctor}: what was checked, how it went, and what was found. Immutable.
 *
 * @param name what was checked, such as {@code token}
 * @param status ok, warn (works, but worth a look) or fail (something to fix)
 * @param detail what was found, naming paths, versions and values
 */
record Check(String name, Status status, String detail) {

  /** How a check went. */
  enum Status {
    OK,
    WARN,
    FAIL;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  static Check ok(String name, String detail) {
    return new Check(name, Status.OK, detail);
  }

  static Check warn(String name, String detail) {
    return new Check(name, Status.WARN, detail);
  }

  static Check fail(String name, String detail) {
    return new Check(name, Status.FAIL, detail);
  }
}
