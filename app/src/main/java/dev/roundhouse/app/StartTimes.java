package dev.roundhouse.app;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --start-at}: an ISO-8601 instant ({@code 2030-01-02T09:00:00Z}) or date-time with an offset
 * ({@code 2030-01-02T09:00:00+01:00}); anything else is a usage error that shows the form. Stateless; thread-safe.
 */
final class StartTimes implements ITypeConverter<Instant> {
  static final String FORM = "an ISO-8601 instant such as 2030-01-02T09:00:00Z, or with an offset such as 2030-01-02T10:00:00+01:00";

  @Override
  public Instant convert(String value) {
    String text = value.strip();
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException notAnInstant) {
      try {
        return OffsetDateTime.parse(text).toInstant();
      } catch (DateTimeParseException e) {
        throw new TypeConversionException("'" + value + "' is not a time: give " + FORM);
      }
    }
  }
}
