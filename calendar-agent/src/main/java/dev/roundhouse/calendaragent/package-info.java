/**
 * Calendars (ICS files today; CalDAV and the SSRF-guarded browse tool next) and staged calendar proposals.
 *
 * <p>A {@code HubExtension}: it registers the calendar operations and handles the answers to calendar
 * proposals through the hub's {@code DecisionDesk}; it depends on the {@code hub} SPI only. See
 * docs/calendar.md.
 */
package dev.roundhouse.calendaragent;
