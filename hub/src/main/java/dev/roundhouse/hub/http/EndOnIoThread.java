package dev.roundhouse.hub.http;

import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HttpServerExchange;

/**
 * Hands the last step of every exchange, the connection's "ready for the next request" (Undertow's
 * {@code HttpReadListener.exchangeComplete}), to the connection's I/O thread when the exchange ends on a
 * request thread.
 *
 * <p>Why: off the I/O thread that step marks the connection busy with a compare-and-set, re-arms reads and
 * marks it idle again; meanwhile the I/O thread, woken by the client's next request (which may be sent the
 * moment the last byte of the answer arrives), <em>spins</em> on that mark until it clears. When the request
 * thread is descheduled inside that window (two cores, virtual threads, other processes) the I/O thread
 * burns its whole time slice, and every connection it serves waits. Measured with {@code roundhouse bench mcp}
 * (JFR: {@code HttpReadListener.handleEvent} was 20 to 40 % of the hub's samples, all in that loop). On the
 * I/O thread the step takes the plain path: no compare-and-set, no spin.
 *
 * <p>Registered first, so it runs last, after every other completion listener. Stateless; thread-safe.
 */
final class EndOnIoThread implements ExchangeCompletionListener {
  static final EndOnIoThread INSTANCE = new EndOnIoThread();

  private EndOnIoThread() {}

  @Override
  public void exchangeEvent(HttpServerExchange exchange, NextListener next) {
    if (exchange.isInIoThread() || !exchange.getConnection().isOpen()) {
      next.proceed();
    } else {
      exchange.getIoThread().execute(next::proceed);
    }
  }
}
