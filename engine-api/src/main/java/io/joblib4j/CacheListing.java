package io.joblib4j;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * What a cache holds, as {@link Memory#entries()} and {@link Memoized#entries()} list it: the entries
 * (least recently used first) and the totals per function. A snapshot: entries stored or deleted
 * afterwards are not reflected.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class CacheListing implements Iterable<CacheEntry> {
  private final String location;
  private final List<CacheEntry> entries;
  private final List<FunctionTotal> functions;

  /**
   * A listing of {@code entries} at {@code location}.
   *
   * @param location the cache's location
   * @param entries the entries, in any order (kept least recently used first)
   */
  public CacheListing(String location, List<CacheEntry> entries) {
    this.location = location;
    List<CacheEntry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparing(CacheEntry::lastAccess).thenComparing(CacheEntry::path));
    this.entries = List.copyOf(sorted);
    Map<String, long[]> counts = new LinkedHashMap<>();
    Map<String, String> names = new LinkedHashMap<>();
    Map<String, Instant> last = new LinkedHashMap<>();
    for (CacheEntry e : sorted) {
      long[] c = counts.computeIfAbsent(e.functionFolder(), k -> new long[2]);
      c[0]++;
      c[1] += e.sizeBytes();
      names.putIfAbsent(e.functionFolder(), e.function());
      last.merge(e.functionFolder(), e.lastAccess(), (a, b) -> a.isAfter(b) ? a : b);
    }
    List<FunctionTotal> totals = new ArrayList<>();
    counts.forEach((folder, c) -> totals.add(new FunctionTotal(names.get(folder), folder, c[0], c[1], last.get(folder))));
    totals.sort(Comparator.comparing(FunctionTotal::bytes).reversed().thenComparing(FunctionTotal::folder));
    this.functions = List.copyOf(totals);
  }

  /**
   * The cache's location.
   *
   * @return the location the Memory was made with
   */
  public String location() {
    return location;
  }

  /**
   * The entries, least recently used first.
   *
   * @return an unmodifiable list
   */
  public List<CacheEntry> entries() {
    return entries;
  }

  /**
   * The entries as a stream, least recently used first.
   *
   * @return a sequential stream
   */
  public Stream<CacheEntry> stream() {
    return entries.stream();
  }

  @Override
  public Iterator<CacheEntry> iterator() {
    return entries.iterator();
  }

  /**
   * How many entries there are.
   *
   * @return the number of entries
   */
  public int size() {
    return entries.size();
  }

  /**
   * The bytes all entries take.
   *
   * @return the sum of {@link CacheEntry#sizeBytes()}
   */
  public long totalBytes() {
    return functions.stream().mapToLong(FunctionTotal::bytes).sum();
  }

  /**
   * The totals per function, largest first.
   *
   * @return one total per function folder holding entries
   */
  public List<FunctionTotal> functions() {
    return functions;
  }

  @Override
  public String toString() {
    return "CacheListing(" + location + ": " + entries.size() + " entries, " + totalBytes() + " bytes, "
        + functions.size() + " functions)";
  }

  /**
   * What one function's entries take.
   *
   * @param function the function's short name
   * @param folder its folder in the store
   * @param entries how many entries it has
   * @param bytes the bytes they take
   * @param lastAccess the most recent access to any of them
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public record FunctionTotal(String function, String folder, long entries, long bytes, Instant lastAccess) {}
}
