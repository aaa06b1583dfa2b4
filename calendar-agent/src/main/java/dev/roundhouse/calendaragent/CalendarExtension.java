package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.browse.WebBrowser;
import dev.roundhouse.hub.spi.DecisionDesk;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import dev.roundhouse.calendaragent.browse.Connector;
import dev.roundhouse.hub.ops.OperationRegistry;

/**
 * The calendar agent's hub extension: read-only query operations over the configured calendars, and
 * proposals ({@code calendar_stage_*}) that open decisions of kind {@value #KIND}. Only a person's
 * approval commits a proposal, exactly once: a created event's UID is derived from the decision id, so a
 * retried commit finds it and writes nothing.
 *
 * <p>This class wires the parts together at {@link #start}: {@link CalendarOperations} (what is offered,
 * audited), {@link CreateProposals}, {@link UpdateProposals} and {@link DeleteProposals} (staging),
 * {@link ProposalCommits} (answers), {@link CalendarResources} (what clients read as resources),
 * {@link CalendarResourceChanges} with {@link PromptWatch} (which changes notify their subscribers) and
 * {@link CalendarConversation} (turns of calendar tasks).
 *
 * <p>Thread-safe: the store serialises writes per calendar; what {@link #start} creates is published
 * through atomic references and immutable afterwards.
 */
public final class CalendarExtension implements HubExtension {
  /** The decision kind of calendar proposals. */
  public static final String KIND = "calendar_proposal";

  static final List<String> OPTIONS = List.of("approve", "reject");

  private final CalendarStore store;
  private final AtomicReference<HttpClient> http = new AtomicReference<>();
  private final AtomicReference<Clock> clock = new AtomicReference<>(Clock.systemUTC());
  private final CalendarQueries queries;
  private final WebBrowser givenBrowser;
  private final ConversationSettings conversation;
  private final Map<String, String> environment;
  private final Duration promptInterval;
  private final AtomicReference<PromptWatch> promptWatch = new AtomicReference<>();
  private final Supplier<HttpClient> httpClient = () -> http.updateAndGet(existing -> existing != null ? existing
      : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build());

  public CalendarExtension(List<CalendarSource> calendars) {
    this(calendars, ConversationSettings.DEFAULTS, null);
  }

  /** With the user's settings for calendar conversations (zone, clock, projects). */
  public CalendarExtension(List<CalendarSource> calendars, ConversationSettings conversation) {
    this(calendars, conversation, null);
  }

  /**
   * With a given browser for {@code calendar_browse} (tests route a public-looking name to a local server
   * through {@link Connector#routedForTests}); null: the real one.
   */
  public CalendarExtension(List<CalendarSource> calendars, WebBrowser browser) {
    this(calendars, ConversationSettings.DEFAULTS, browser);
  }

  /** With conversation settings and a given browser (null: the real one). */
  public CalendarExtension(List<CalendarSource> calendars, ConversationSettings conversation, WebBrowser browser) {
    this(calendars, conversation, browser, System.getenv());
  }

  /**
   * With conversation settings, a given browser (null: the real one) and the hub's environment, where
   * {@code calendar_discover} looks up a {@code password_env}.
   */
  public CalendarExtension(List<CalendarSource> calendars, ConversationSettings conversation, WebBrowser browser,
      Map<String, String> environment) {
    this(calendars, conversation, browser, environment, PromptWatch.INTERVAL);
  }

  /** As above, looking at the prompt's override every {@code promptInterval} (tests look often). */
  CalendarExtension(List<CalendarSource> calendars, ConversationSettings conversation, WebBrowser browser,
      Map<String, String> environment, Duration promptInterval) {
    this.promptInterval = Objects.requireNonNull(promptInterval, "promptInterval");
    this.conversation = Objects.requireNonNull(conversation, "conversation");
    this.givenBrowser = browser;
    this.environment = Map.copyOf(environment);
    this.store = new CalendarStore(calendars, httpClient);
    this.queries = new CalendarQueries(store, clock::get);
  }

  @Override
  public String name() {
    return "calendar";
  }

  @Override
  public void close() {
    PromptWatch watch = promptWatch.getAndSet(null);
    if (watch != null) {
      watch.close();
    }
    HttpClient client = http.getAndSet(null);
    if (client != null) {
      client.close();
    }
  }

  /** The store, for tests in this package. */
  CalendarStore store() {
    return store;
  }

  /** The UID of the event a create proposal adds: derived from its decision, so a retry cannot duplicate it. */
  public static String uidFor(long decision) {
    return "roundhouse-proposal-" + decision + "@roundhouse";
  }

  /**
   * Registers the calendar's operations in {@code registry} for their descriptions only (the generated reference);
   * the registry must never invoke them.
   */
  public static void describe(OperationRegistry registry) {
    new CalendarOperations(null, null, null, null, null, null, null, null).register(registry);
  }

  @Override
  public void start(ExtensionContext context) {
    Clock hubClock = context.clock();
    clock.set(hubClock);
    CalendarResourceChanges changes = new CalendarResourceChanges(context);
    CalendarAudit audit = new CalendarAudit(context.home().resolve(CalendarAudit.FILE), CalendarAudit.DEFAULT_CAP, hubClock,
        changes::audited);
    store.onWrite(changes);
    WebBrowser browser = givenBrowser != null ? givenBrowser : WebBrowser.create(hubClock);
    CalendarPrompt prompt = new CalendarPrompt(context.home());
    DecisionDesk decisions = context.decisions();
    ProposalDesk desk = new ProposalDesk(decisions, context.operations());
    new CalendarOperations(queries, new CreateProposals(store, desk), new UpdateProposals(store, queries, desk),
        new DeleteProposals(store, queries, desk), new CalendarBrowse(browser, store), audit, prompt,
        new CalendarDiscovery(store, httpClient, environment))
        .register(context.operations());
    new CalendarResources(queries, audit, prompt).resources().forEach(context::offerResource);
    decisions.onAnswer(KIND, new ProposalCommits(store, audit)::answered);
    context.contributeToTurns(new CalendarConversation(conversation, prompt, store, queries, clock::get));
    PromptWatch previous = promptWatch.getAndSet(PromptWatch.start(prompt, promptInterval, changes::promptChanged));
    if (previous != null) {
      previous.close();
    }
  }
}
