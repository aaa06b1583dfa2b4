package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.CalendarOps.Browse;
import dev.roundhouse.calendaragent.CalendarOps.BrowseInput;
import dev.roundhouse.calendaragent.browse.WebBrowser;
import dev.roundhouse.hub.core.RoundhouseException;
import java.time.ZoneId;

/**
 * {@code calendar_browse}: one guarded fetch through {@link WebBrowser}; HTML comes back as clean text, an
 * iCalendar body as events to stage (floating times read in the first writable calendar's zone).
 *
 * <p>Thread-safe: stateless beyond the browser and the store, which are.
 */
final class CalendarBrowse {
  private final WebBrowser browser;
  private final CalendarStore store;

  CalendarBrowse(WebBrowser browser, CalendarStore store) {
    this.browser = browser;
    this.store = store;
  }

  Browse browse(BrowseInput in) {
    if (in.url() == null || in.url().isBlank()) {
      throw new RoundhouseException.InvalidInput("url is required");
    }
    WebBrowser.Page page = browser.browse(in.url());
    if (page.kind().equals("calendar")) {
      ZoneId zone = store.sources().stream().filter(CalendarSource::writable).map(CalendarSource::zone).findFirst().orElse(Times.UTC);
      IcsImport.Result events = IcsImport.read(page.text(), zone);
      String note = page.truncated() ? "the file was cut at " + WebBrowser.MAX_BYTES + " bytes; events may be missing" : null;
      note = events.note() == null ? note : note == null ? events.note() : note + "; " + events.note();
      return new Browse(page.url(), page.redirects(), page.status(), page.kind(), page.title(), null, page.truncated(),
          events.events(), note);
    }
    return new Browse(page.url(), page.redirects(), page.status(), page.kind(), page.title(), page.text(), page.truncated(), null,
        page.truncated() ? "truncated" : null);
  }
}
