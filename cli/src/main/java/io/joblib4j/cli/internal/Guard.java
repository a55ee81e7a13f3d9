package io.joblib4j.cli.internal;

import io.joblib4j.cli.Main;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.Holdings;
import java.io.IOException;

/** The check every command that deletes makes first: is there a joblib4j cache at the location at all? */
public final class Guard {
  private Guard() {}

  /**
   * Throws, with exit code {@link Main#NO_CACHE}, unless the location holds a joblib4j cache
   * ({@link Holdings#holdsCache}); then nothing was read beyond the check and nothing was written.
   */
  public static void requireCache(Store store, String typed) {
    boolean holds;
    try {
      holds = Holdings.holdsCache(store);
    } catch (IOException e) {
      store.close();
      throw new CliException(Main.UNREACHABLE, "cannot read " + typed + ": " + Cli.message(e), e);
    }
    if (!holds) {
      store.close();
      throw new CliException(Main.NO_CACHE, "no joblib4j cache at " + typed + ": it holds no function folder with a "
          + Holdings.FUNCTION_FILE + ", no stage entry and no .gitignore or " + Holdings.BOOKKEEPING
          + " of joblib4j's; nothing was changed there (check the location)");
    }
  }
}
