package io.joblib4j.spi.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.apiguardian.api.API;
import org.slf4j.LoggerFactory;

/**
 * Where joblib4j's user-facing warnings go (joblib issues Python warnings for the same cases):
 * SLF4J at WARN under the source's logger, plus any hooks registered — tests use them to assert
 * that a warning was given. Backends and stores warn through it too, so that an application (or a
 * test) sees the warnings of every module in one place.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class Warnings {
  private static final List<BiConsumer<Class<?>, String>> HOOKS = new CopyOnWriteArrayList<>();

  private Warnings() {}

  /**
   * Warns the user about something they asked for that will not work as they may expect.
   *
   * @param source the class the warning is about, whose logger takes it
   * @param message what the user should know, and what to do
   */
  public static void warn(Class<?> source, String message) {
    LoggerFactory.getLogger(source).warn(message);
    for (BiConsumer<Class<?>, String> hook : HOOKS) {
      hook.accept(source, message);
    }
  }

  /**
   * Adds a hook told every warning; returns an action that removes it.
   *
   * @param hook told the source and the message of each warning
   * @return an action that removes the hook
   */
  public static Runnable addHook(BiConsumer<Class<?>, String> hook) {
    HOOKS.add(hook);
    return () -> HOOKS.remove(hook);
  }
}
