package dev.roundhouse.calendaragent;

/**
 * One occurrence of an event, as query operations return it. Immutable.
 *
 * @param start the instant it starts (ISO-8601, UTC); for an all-day event the start of the day in {@code zone}
 * @param end the instant it ends
 * @param zone the IANA zone the event is in (the calendar's zone for floating and all-day events)
 * @param startLocal the wall-clock start in {@code zone} ({@code 2026-03-05} for an all-day event)
 * @param endLocal the wall-clock end in {@code zone} (exclusive date for an all-day event)
 * @param allDay whether it is a date, not a time
 * @param floating whether the file gives no zone (read in the calendar's zone)
 * @param recurrenceId the original start of this occurrence when it belongs to a recurring event
 * @param overridden whether a RECURRENCE-ID override changed this occurrence
 */
record Occurrence(
    String calendar,
    String uid,
    String recurrenceId,
    String title,
    String category,
    String subCategory,
    String start,
    String end,
    String zone,
    String startLocal,
    String endLocal,
    boolean allDay,
    boolean floating,
    boolean recurring,
    boolean overridden,
    String status,
    boolean transparent,
    String location,
    String description) {}
