package dev.roundhouse.app;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import picocli.CommandLine;

/**
 * Creates picocli's objects, handing the {@link Context} to every command whose constructor takes one; all
 * else (converters, version provider) comes from picocli's default factory. Immutable and thread-safe.
 */
final class CommandFactory implements CommandLine.IFactory {
  private final Context context;
  private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

  CommandFactory(Context context) {
    this.context = context;
  }

  @Override
  public <K> K create(Class<K> type) throws Exception {
    Constructor<K> constructor;
    try {
      constructor = type.getDeclaredConstructor(Context.class);
    } catch (NoSuchMethodException e) {
      return fallback.create(type);
    }
    constructor.setAccessible(true);
    try {
      return constructor.newInstance(context);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
