package dev.roundhouse.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * Logback's configuration when {@link LogSetup} chose JSON logs: every event as one JSON object per line on stderr
 * ({@code timestamp} in epoch milliseconds, {@code level}, {@code threadName}, {@code loggerName},
 * {@code formattedMessage}, {@code mdc}, {@code kvpList}, {@code throwable}; docs/configuration.md), at the level
 * {@link LogSetup#LEVEL_PROPERTY} names, with Undertow's and XNIO's chatter at warn as in text logs. Found through
 * {@code META-INF/services}, so Logback never searches for XML files. Called once, by Logback, at its start.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class JsonLogs extends ContextAwareBase implements Configurator {
  /** For Logback's service loader. */
  public JsonLogs() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(context);
    encoder.setWithSequenceNumber(false);
    encoder.setWithNanoseconds(false);
    encoder.setWithContext(false);
    encoder.setWithMessage(false); // the template; formattedMessage has the arguments in it
    encoder.setWithArguments(false);
    encoder.setWithFormattedMessage(true);
    encoder.start();

    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("stderr");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();

    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(System.getProperty(LogSetup.LEVEL_PROPERTY, "info"), Level.INFO));
    root.addAppender(appender);
    for (String chatty : new String[] {"org.xnio", "io.undertow", "org.jboss"}) {
      context.getLogger(chatty).setLevel(Level.WARN);
    }
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
