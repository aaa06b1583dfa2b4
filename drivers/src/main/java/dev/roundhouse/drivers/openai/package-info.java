/**
 * The OpenAI-compatible "bring your own key" driver. {@link dev.roundhouse.drivers.openai.OpenAiDriver} is the
 * only public class; the rest is package-private:
 *
 * <ul>
 *   <li>{@code OpenAiConfig}, {@code OpenAiSettings}, {@code Secret}: configuration and the key;
 *   <li>{@code ChatClient}, {@code SseLines}, {@code ReplyAssembler}, {@code ChatReply}, {@code RetryPolicy},
 *       {@code Sleeper}, {@code ProviderMessages}, {@code EndpointException}: the wire (HTTP, SSE, retries,
 *       provider errors);
 *   <li>{@code ChatLoop}, {@code Toolbox}, {@code ToolArguments}, {@code ToolOutcome}: one turn's
 *       conversation and its tools;
 *   <li>{@code WorkspaceTools}, {@code ToolInput}, {@code ToolSchema}, {@code WorkspacePaths}, {@code
 *       CommandRunner}, {@code OutputCapture}: the tools that work on the project folder.
 * </ul>
 *
 * <p>See {@code docs/drivers/openai.md}.
 */
package dev.roundhouse.drivers.openai;
