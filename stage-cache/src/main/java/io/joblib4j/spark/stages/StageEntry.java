package io.joblib4j.spark.stages;

import java.time.Instant;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One committed entry of a {@link StageCache}, as {@link StageCatalog#list()} reports it.
 *
 * @param stage the stage's folder under {@code stages/} ({@code Pipeline.clean-1a2b3c4d5e6f})
 * @param name the stage function's name ({@code Pipeline.clean})
 * @param key the entry's key, 32 hex digits
 * @param created when the entry was published
 * @param lastAccess when it was last read (or published)
 * @param bytes the size of its data files
 * @param rows the rows it holds
 * @param inputs what the stage read, for people: input folders with their file counts, other
 *     stages' entries ({@code stage Pipeline.load-.../<key>}), plain arguments
 * @param data where its data files are (a URI)
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record StageEntry(String stage, String name, String key, Instant created, Instant lastAccess, long bytes,
    long rows, List<String> inputs, String data) {

  /**
   * Copies {@code inputs}.
   *
   * @param stage the stage folder
   * @param name the stage's name
   * @param key the key
   * @param created when published
   * @param lastAccess when last read
   * @param bytes data bytes
   * @param rows rows
   * @param inputs inputs for people
   * @param data the data folder's URI
   */
  public StageEntry {
    inputs = List.copyOf(inputs);
  }
}
