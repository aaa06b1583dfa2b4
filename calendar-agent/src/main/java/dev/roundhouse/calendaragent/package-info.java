/**
 * Calendars (ICS files and CalDAV collections), staged calendar proposals and the SSRF-guarded browse tool.
 *
 * <p>A {@code HubExtension}: it registers the calendar operations and handles the answers to calendar
 * proposals through the hub's {@code DecisionDesk}; it depends on the {@code hub} SPI only. See
 * docs/calendar.md.
 */
package dev.roundhouse.calendaragent;
