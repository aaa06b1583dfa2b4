package dev.roundhouse.mcpserver;

import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The SDK's transport provider as the MCP server sees it, with one addition: every session the server starts
 * is recorded in {@link KnownSessions}, with the client that started it. Everything else is the provider's.
 * Thread-safe, as the provider is; {@link KnownSessions} is.
 */
final class TrackedSessions implements McpStreamableServerTransportProvider {
  private final McpStreamableServerTransportProvider provider;
  private final KnownSessions known;

  TrackedSessions(McpStreamableServerTransportProvider provider, KnownSessions known) {
    this.provider = provider;
    this.known = known;
  }

  @Override
  public void setSessionFactory(McpStreamableServerSession.Factory factory) {
    provider.setSessionFactory(initialize -> {
      McpStreamableServerSession.McpStreamableServerSessionInit started = factory.startSession(initialize);
      known.started(started.session(), initialize.clientInfo());
      return started;
    });
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return provider.notifyClients(method, params);
  }

  @Override
  public Mono<Void> notifyClient(String sessionId, String method, Object params) {
    return provider.notifyClient(sessionId, method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return provider.closeGracefully();
  }

  @Override
  public void close() {
    provider.close();
  }

  @Override
  public List<String> protocolVersions() {
    return provider.protocolVersions();
  }
}
