package dev.roundhouse.hub.store;

/**
 * The few pieces of SQL that SQLite and PostgreSQL spell differently. Everything else the store says is
 * written once, in the SQL both accept (such as {@code INSERT ... ON CONFLICT}, {@code RETURNING} and
 * {@code substr}).
 *
 * <p>Case-insensitive matching differs by design: SQLite's {@code NOCASE} and {@code LIKE} fold ASCII
 * letters only; PostgreSQL's {@code lower()} and {@code ILIKE} fold every letter of the database's
 * encoding. So two project names that differ only in a non-ASCII letter's case are one name on PostgreSQL
 * and two on SQLite (documented in {@code docs/configuration.md}).
 *
 * <p>Immutable.
 */
enum Dialect {
  SQLITE {
    @Override
    String equalsIgnoringCase(String column, String parameter) {
      return column + " = :" + parameter + " COLLATE NOCASE";
    }

    @Override
    String orderIgnoringCase(String column) {
      return column + " COLLATE NOCASE";
    }

    @Override
    String jsonArrayOf(String expression) {
      return "json_group_array(" + expression + " ORDER BY " + expression + ")";
    }

    @Override
    String jsonLong(String column, String field) {
      return "json_extract(" + column + ", '$." + field + "')";
    }

    @Override
    String likeIgnoringCase() {
      return "LIKE";
    }
  },

  POSTGRESQL {
    @Override
    String equalsIgnoringCase(String column, String parameter) {
      return "lower(" + column + ") = lower(:" + parameter + ")";
    }

    @Override
    String orderIgnoringCase(String column) {
      return "lower(" + column + ")";
    }

    @Override
    String jsonArrayOf(String expression) {
      // json_agg over no row is NULL where SQLite's json_group_array is '[]'
      return "coalesce(json_agg(" + expression + " ORDER BY " + expression + ")::text, '[]')";
    }

    @Override
    String jsonLong(String column, String field) {
      return "(" + column + "::json ->> '" + field + "')::bigint";
    }

    @Override
    String likeIgnoringCase() {
      return "ILIKE";
    }
  };

  /** A condition: {@code column} equals the named parameter, ignoring case. */
  abstract String equalsIgnoringCase(String column, String parameter);

  /** An {@code ORDER BY} term sorting {@code column} ignoring case. */
  abstract String orderIgnoringCase(String column);

  /** An aggregate: the JSON array text of {@code expression} over the group's rows, sorted; {@code []} for none. */
  abstract String jsonArrayOf(String expression);

  /** The whole number at {@code field} of the JSON object text in {@code column} (field is a constant). */
  abstract String jsonLong(String column, String field);

  /** The case-insensitive {@code LIKE} operator. */
  abstract String likeIgnoringCase();
}
