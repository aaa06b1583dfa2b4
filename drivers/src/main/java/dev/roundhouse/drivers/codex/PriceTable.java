package dev.roundhouse.drivers.codex;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What OpenAI models cost, per million tokens, so the driver can estimate a turn's cost: Codex reports exact
 * token counts but no price. A model matches the longest known prefix ({@code gpt-5.5} is priced as {@code
 * gpt-5}); an unknown model has no price, and its usage carries no cost. The figures are OpenAI's public
 * list prices when this table was written; they are estimates, and usage events say so. Immutable.
 */
final class PriceTable {

  /** US dollars per million tokens. Cached input is the part of the input served from the prompt cache. */
  record Price(double input, double cachedInput, double output) {}

  static final PriceTable DEFAULT = new PriceTable(Map.of(
      "gpt-5", new Price(1.25, 0.125, 10.0),
      "gpt-5-mini", new Price(0.25, 0.025, 2.0),
      "gpt-5-nano", new Price(0.05, 0.005, 0.40),
      "gpt-5-pro", new Price(15.0, 15.0, 120.0),
      "gpt-4.1", new Price(2.0, 0.50, 8.0),
      "gpt-4.1-mini", new Price(0.40, 0.10, 1.60),
      "gpt-4o", new Price(2.50, 1.25, 10.0),
      "o3", new Price(2.0, 0.50, 8.0),
      "o4-mini", new Price(1.10, 0.275, 4.40),
      "codex-mini", new Price(1.50, 0.375, 6.0)));

  private final List<Map.Entry<String, Price>> byLongestPrefix;

  PriceTable(Map<String, Price> prices) {
    this.byLongestPrefix = prices.entrySet().stream()
        .sorted(Comparator.comparingInt((Map.Entry<String, Price> e) -> e.getKey().length()).reversed())
        .map(e -> Map.entry(e.getKey().toLowerCase(Locale.ROOT), e.getValue()))
        .toList();
  }

  /** The price of {@code model}, or empty when the table does not know it. */
  Optional<Price> priceOf(String model) {
    if (model == null) {
      return Optional.empty();
    }
    String name = model.toLowerCase(Locale.ROOT);
    int slash = name.lastIndexOf('/');
    String bare = slash >= 0 ? name.substring(slash + 1) : name;
    return byLongestPrefix.stream().filter(e -> bare.startsWith(e.getKey())).map(Map.Entry::getValue).findFirst();
  }

  /**
   * The estimated cost in US dollars of one model call, or empty when the model is unknown.
   *
   * @param inputTokens all input tokens, cached ones included (as OpenAI counts them)
   * @param cachedInputTokens the cached part of the input
   * @param outputTokens output tokens, reasoning included
   */
  Optional<Double> cost(String model, long inputTokens, long cachedInputTokens, long outputTokens) {
    return priceOf(model).map(price -> {
      long cached = Math.min(Math.max(0, cachedInputTokens), inputTokens);
      return ((inputTokens - cached) * price.input() + cached * price.cachedInput() + outputTokens * price.output()) / 1_000_000.0;
    });
  }
}
