/**
 * Agent drivers: implementations of the hub's {@code AgentDriver} SPI, each normalising one agent's
 * protocol onto the common turn-event contract. They talk to the hub only through the {@code TurnContext}
 * and never touch the store.
 *
 * <ul>
 *   <li>{@code openai}: any OpenAI-compatible chat-completions endpoint, with the user's own key
 *       ({@code docs/drivers/openai.md}).
 *   <li>{@code script}: plays JSON scripts, for tests, benchmarks and {@code roundhouse demo}
 *       ({@code docs/drivers/script.md}).
 * </ul>
 */
package dev.roundhouse.drivers;
