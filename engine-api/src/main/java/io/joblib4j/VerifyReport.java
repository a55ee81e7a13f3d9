package io.joblib4j;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What {@link Memory#verify} found: every entry's files checked against the sizes and checksums its
 * {@code metadata.json} records, files in the cache's folders that are not Memory's, and temporaries
 * of writers that died. With {@code repair} the problems found were deleted.
 *
 * @param entriesChecked how many entries were checked
 * @param problems what is wrong, one line each
 * @param repaired whether the problems were deleted
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record VerifyReport(long entriesChecked, List<Problem> problems, boolean repaired) {

  /**
   * Copies the list.
   *
   * @param entriesChecked how many entries were checked
   * @param problems what is wrong
   * @param repaired whether the problems were deleted
   */
  public VerifyReport {
    problems = List.copyOf(problems);
  }

  /**
   * Whether nothing is wrong.
   *
   * @return true if no problem was found
   */
  public boolean ok() {
    return problems.isEmpty();
  }

  /**
   * The problems of one kind.
   *
   * @param kind the kind
   * @return those problems
   */
  public List<Problem> problems(Kind kind) {
    return problems.stream().filter(p -> p.kind() == kind).toList();
  }

  /** What kind of problem. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public enum Kind {
    /** An entry whose output or metadata is missing, does not parse, or has the wrong size or checksum. */
    DAMAGED_ENTRY,
    /** A file or folder inside a function's folder or an entry that Memory did not write: reported, never deleted. */
    FOREIGN_FILE,
    /** A temporary of a writer that died (older than an hour: younger ones may still be written). */
    ABANDONED_TEMPORARY,
    /**
     * A file of an entry that could not be read (permission denied, an I/O error): not proof of
     * damage, so a repair leaves it; the detail says why.
     */
    UNREADABLE
  }

  /**
   * One problem.
   *
   * @param kind what kind
   * @param path where in the store, relative to its location
   * @param detail what is wrong
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public record Problem(Kind kind, String path, String detail) {}
}
