package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.api.AgentToolsApi;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.http.HttpMount;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.undertow.server.HttpHandler;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.api.ServletStackTraces;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletException;
import io.modelcontextprotocol.server.McpServerFeatures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP SDK's Streamable HTTP servlet in an Undertow servlet deployment of its own, mounted at
 * {@link McpServers#PATH} on the hub's server. In front of it, these filters in this order (all async-supported,
 * as the servlet is): {@link CleanErrorsFilter}, {@link GuardFilter} (which also tells an external client from a
 * task's agent: {@link Caller}), {@link BodyLimitFilter}, {@link MessageChecks} (a message's JSON-RPC shape), {@link DirectToolCalls} (which answers plain calls of
 * operations itself, in the sessions that {@link TrackedSessions} saw the SDK start), {@link ToolCallRouting},
 * {@link PlainReconnectFilter} and {@link CoalescingFilter}. It registers {@link AgentTokens} with the hub's
 * runner, so turns get task-scoped endpoints while it is mounted. Tools come from {@link OperationTools},
 * resources from {@link HubResources} and the extensions' from {@link ExtensionResourceSpecs}; {@link ResourceUpdates} follows the hub's events for subscriptions. Tool calls run on the request's virtual
 * thread ({@code immediateExecution}).
 *
 * <p>Thread-safe. {@link #close()} closes the MCP sessions and undeploys, once.
 */
final class StreamableHttpMount implements HttpMount {
  private static final Logger log = LoggerFactory.getLogger(StreamableHttpMount.class);

  private final Hub hub;
  private final McpSyncServer server;
  private final ResourceUpdates updates;
  private final DeploymentManager deployment;
  private final HttpHandler handler;
  private final ExecutorService executor;
  private final DirectToolCalls direct;
  private final AtomicBoolean closed = new AtomicBoolean();

  private StreamableHttpMount(
      McpSyncServer server, ResourceUpdates updates, DeploymentManager deployment, HttpHandler handler, ExecutorService executor,
      DirectToolCalls direct, Hub hub) {
    this.direct = direct;
    this.hub = hub;
    this.server = server;
    this.updates = updates;
    this.deployment = deployment;
    this.handler = handler;
    this.executor = executor;
  }

  @SuppressWarnings("deprecation") // logging(): see ToolCalls#send
  static StreamableHttpMount create(Hub hub, McpOptions options, AgentTokens agents, RequestChecks checks, boolean withMetadata) {
    HttpServletStreamableServerTransportProvider transport =
        HttpServletStreamableServerTransportProvider.builder()
            .mcpEndpoint(McpServers.PATH)
            .maxRequestSize(hub.config().maxBodyBytes())
            .sessionSweepInterval(options.sessionIdle())
            .contextExtractor(request -> request.getAttribute(Caller.KEY) instanceof Caller caller
                ? caller.context() : Caller.EXTERNAL.context())
            .build();
    ToolCalls calls = new ToolCalls(hub.operations(), options.heartbeat());
    KnownSessions sessions = new KnownSessions(options.sessionIdle(), System::nanoTime);
    hub.metrics().gauge("roundhouse.mcp.sessions", "MCP sessions open on the Streamable HTTP endpoint", sessions::size);
    List<McpServerFeatures.SyncCompletionSpecification> completions = new ArrayList<>(HubResources.completions(hub.operations()));
    completions.addAll(HubPrompts.completions(hub.operations()));
    completions.addAll(ExtensionResourceSpecs.completions(hub.resources()));
    completions.addAll(options.extraCompletions());
    List<McpServerFeatures.SyncResourceSpecification> resources = new ArrayList<>(HubResources.resources(hub.operations()));
    resources.addAll(options.extraResources());
    List<McpServerFeatures.SyncResourceTemplateSpecification> templates = new ArrayList<>(HubResources.templates(hub.operations()));
    templates.addAll(options.extraTemplates());
    java.util.Set<String> taken = new java.util.HashSet<>();
    resources.forEach(resource -> taken.add(resource.resource().uri()));
    templates.forEach(template -> taken.add(template.resourceTemplate().uriTemplate()));
    resources.addAll(ExtensionResourceSpecs.resources(hub.resources(), taken));
    templates.addAll(ExtensionResourceSpecs.templates(hub.resources(), taken));
    McpSyncServer server =
        McpServer.sync(new TrackedSessions(transport, sessions))
            .serverInfo(McpSchema.Implementation.builder(ServerIdentity.NAME, Hub.version()).title(ServerIdentity.TITLE).build())
            .instructions(ServerIdentity.INSTRUCTIONS)
            // tools and prompts: listChanged false, as the registry and the prompts do not change while the hub
            // runs; resources: subscribe true, listChanged false (the fixed resources never change).
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(true, false).prompts(false)
                .completions().logging().build())
            .jsonSchemaValidator(new TrustedSchemas())
            .validateToolInputs(false)
            .immediateExecution(true)
            .addToolFilter((context, tool) -> !tool.name().equals(UnknownTools.NAME) && Caller.of(context).listed(tool.name()))
            .resources(resources)
            .resourceTemplates(templates)
            .prompts(HubPrompts.prompts(hub.operations()))
            .prompts(options.extraPrompts())
            .completions(completions)
            .build();
    // The tools (each with its operation's schemas) are made when the first request reaches the SDK.
    ToolsOnFirstRequest tools = new ToolsOnFirstRequest(server, () -> {
      List<McpServerFeatures.SyncToolSpecification> all = new ArrayList<>(OperationTools.of(hub.operations(), calls));
      all.add(UnknownTools.tool(hub.operations()));
      all.addAll(options.extraTools());
      return all;
    });
    ResourceUpdates updates = ResourceUpdates.start(hub, server);
    DirectToolCalls direct = new DirectToolCalls(sessions, hub.operations(), calls, McpJsonDefaults.getMapper(),
        name -> !AgentToolsApi.WAIT_FOR_A_PERSON.contains(name));
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    DeploymentInfo info =
        Servlets.deployment()
            .setClassLoader(StreamableHttpMount.class.getClassLoader())
            .setContextPath("/")
            .setDeploymentName("roundhouse-mcp")
            .setServletStackTraces(ServletStackTraces.NONE)
            .setExecutor(executor)
            .setAsyncExecutor(executor)
            .addServlet(
                Servlets.servlet("mcp", HttpServletStreamableServerTransportProvider.class, new ImmediateInstanceFactory<>(transport))
                    .addMapping(McpServers.PATH)
                    .setAsyncSupported(true)
                    .setLoadOnStartup(1))
            .addFilter(filter("clean-errors", new CleanErrorsFilter(options.sessionIdle())))
            .addFilter(filter("guard", new GuardFilter(checks, withMetadata)))
            .addFilter(filter("body-limit", new BodyLimitFilter(hub.config().maxBodyBytes())))
            .addFilter(filter("message-checks", new MessageChecks()))
            .addFilter(filter("direct-tool-calls", direct))
            .addFilter(filter("tool-call-routing", new ToolCallRouting(
                name -> hub.operations().describe(name).isPresent() || options.extraTool(name))))
            .addFilter(filter("plain-reconnect", new PlainReconnectFilter()))
            .addFilter(filter("coalescing", new CoalescingFilter()))
            .addFilter(filter("sdk-tools", tools))
            .addFilterUrlMapping("clean-errors", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("guard", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("body-limit", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("message-checks", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("direct-tool-calls", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("tool-call-routing", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("plain-reconnect", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("coalescing", "/*", DispatcherType.REQUEST)
            .addFilterUrlMapping("sdk-tools", "/*", DispatcherType.REQUEST);
    DeploymentManager deployment = Servlets.newContainer().addDeployment(info);
    deployment.deploy();
    try {
      HttpHandler servlets = deployment.start();
      HttpHandler handler = exchange -> {
        // Undertow's own limit (MAX_ENTITY_SIZE, 2 MiB) would refuse a larger declared Content-Length before any
        // filter runs, and the hub would answer it with a 500: lifted here (0), so BodyLimitFilter decides alone.
        exchange.setMaxEntitySize(0);
        servlets.handleRequest(exchange);
      };
      StreamableHttpMount mount = new StreamableHttpMount(server, updates, deployment, handler, executor, direct, hub);
      hub.useAgentEndpoints(agents);
      return mount;
    } catch (ServletException e) {
      updates.close();
      server.close();
      executor.shutdownNow();
      throw new RoundhouseException("mcp_unavailable", "cannot start the MCP endpoint: " + e.getMessage(), e);
    }
  }

  private static <F extends Filter> io.undertow.servlet.api.FilterInfo filter(String name, F filter) {
    @SuppressWarnings("unchecked")
    Class<F> type = (Class<F>) filter.getClass();
    return Servlets.filter(name, type, new ImmediateInstanceFactory<>(filter)).setAsyncSupported(true);
  }

  /** How many tool calls were answered without the SDK ({@link DirectToolCalls}). */
  long directAnswers() {
    return direct.answered();
  }

  @Override
  public String prefix() {
    return McpServers.PATH;
  }

  @Override
  public HttpHandler handler() {
    return handler;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    hub.useAgentEndpoints(dev.roundhouse.hub.spi.AgentEndpoints.NONE);
    try {
      updates.close();
      server.close();
      deployment.stop();
      deployment.undeploy();
    } catch (ServletException | RuntimeException e) {
      log.warn("closing the MCP endpoint failed", e);
    } finally {
      executor.shutdownNow();
    }
  }
}
