/**
 * Calendars (ICS files and CalDAV), staged calendar proposals and the SSRF-guarded browse tool.
 *
 * <p>Empty until the calendar issue lands; depends on the {@code hub} SPI only.
 */
package dev.roundhouse.calendaragent;
