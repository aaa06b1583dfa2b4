package dev.roundhouse.app;

import picocli.CommandLine.Option;

/** The {@code --json} flag: print the JSON the hub returned instead of text. Filled by picocli; not thread-safe. */
final class JsonOption {
  @Option(names = "--json", description = "Print the JSON the hub returned instead of text.")
  boolean enabled;
}
