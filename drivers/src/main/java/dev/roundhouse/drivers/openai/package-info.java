/**
 * The OpenAI-compatible "bring your own key" driver. {@link dev.roundhouse.drivers.openai.OpenAiDriver} is the
 * only public class; the rest is package-private:
 *
 * <ul>
 *   <li>{@code OpenAiConfig}, {@code OpenAiSettings}, {@code Secret}: configuration and the key;
 *   <li>{@code ChatClient}, {@code SseLines}, {@code ReplyAssembler}, {@code RetryPolicy}, {@code Sleeper}: the
 *       wire (HTTP, SSE, retries);
 *   <li>{@code ChatLoop}, {@code Toolbox}, {@code ToolArguments}: one turn's conversation and its tools;
 *   <li>{@code WorkspaceTools}, {@code WorkspacePaths}, {@code CommandRunner}, {@code OutputCapture}: the
 *       tools that work on the project folder.
 * </ul>
 *
 * <p>See {@code docs/drivers/openai.md}.
 */
package dev.roundhouse.drivers.openai;
