/**
 * The Codex driver: OpenAI's Codex CLI driven through {@code codex app-server}. {@link
 * dev.roundhouse.drivers.codex.CodexDriver} and {@link dev.roundhouse.drivers.codex.CodexSettings} are the
 * only public classes; the rest is package-private:
 *
 * <ul>
 *   <li>{@code AppServer}: the child process and its JSON-RPC-shaped protocol (our requests, the server's
 *       requests, notifications);
 *   <li>{@code CodexSession}: one run, from the handshake through its thread's turns, lingering between
 *       them, and its stop;
 *   <li>{@code ItemEvents}, {@code ShellCommands}: notifications onto the turn-event contract;
 *   <li>{@code Approvals}: the server's approval requests as the hub's permission decisions;
 *   <li>{@code EndpointDeadline}, {@code ModelEndpoint}: the driver's deadline on a dead model endpoint, and
 *       naming that endpoint;
 *   <li>{@code PriceTable}: the cost estimate;
 *   <li>{@code CodexProbe}, {@code CodexFacts}: what the installed Codex says about itself.
 * </ul>
 *
 * <p>See {@code docs/drivers/codex.md}.
 */
package dev.roundhouse.drivers.codex;
