package io.joblib4j;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What {@link Memory#prune} removed, or with a dry run would remove, least recently used first.
 *
 * @param dryRun whether nothing was deleted (the entries are what a real run would delete)
 * @param removed the entries removed (or that would be)
 * @param bytesRemoved the bytes they take
 * @param remainingEntries the entries left afterwards
 * @param remainingBytes the bytes left afterwards
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record PruneReport(boolean dryRun, List<CacheEntry> removed, long bytesRemoved, long remainingEntries,
    long remainingBytes) {

  /**
   * Copies the list.
   *
   * @param dryRun whether nothing was deleted
   * @param removed the entries removed
   * @param bytesRemoved the bytes they take
   * @param remainingEntries the entries left
   * @param remainingBytes the bytes left
   */
  public PruneReport {
    removed = List.copyOf(removed);
  }
}
