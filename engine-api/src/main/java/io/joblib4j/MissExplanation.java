package io.joblib4j;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Why a call would miss the cache, as {@code memoized.explain(args)} tells it: whether the call's
 * entry is stored, and if not, which part of the call key differs from the closest stored entry of
 * the same function (the one with the fewest differing parts): the code version, the captured values,
 * or an argument (by position and name). Explaining computes nothing and stores nothing.
 *
 * <pre>{@code
 * MissExplanation why = memory.cache(Signals::hamming).explain(2048);
 * System.out.println(why);
 * // Signals.hamming(2048) misses; against the closest stored entry (5eff...): argument 0 (n) differs: stored 1024, now 2048
 * }</pre>
 *
 * @param call the function and the arguments, briefly ({@code Signals.hamming(2048)})
 * @param cached whether the call's entry is stored (it would hit)
 * @param closest the closest stored entry of the function, if there is one and the call would miss
 * @param differences what differs from the closest entry; empty when the call would hit, or when the
 *     function has no entries at all
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record MissExplanation(String call, boolean cached, Optional<CacheEntry> closest, List<Difference> differences) {

  /**
   * Copies the list.
   *
   * @param call the call, briefly
   * @param cached whether the call would hit
   * @param closest the closest stored entry, if any
   * @param differences what differs from it
   */
  public MissExplanation {
    closest = closest == null ? Optional.empty() : closest;
    differences = List.copyOf(differences);
  }

  /** A part of the call key. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public enum Component {
    /** The function's code version: its bytecode, or that of the code of the user's it reaches, changed. */
    CODE_VERSION,
    /** The values the function captured (a lambda's captured variables, a function object's fields). */
    CAPTURED_VALUE,
    /** One argument. */
    ARGUMENT,
    /**
     * A named part of a pipeline stage's key ({@code function}, {@code settings}, {@code arg0.plan},
     * {@code arg0.inputs}, ...): the stage cache's parts are named, not positional.
     */
    KEY_PART
  }

  /**
   * One differing part of the key.
   *
   * @param component which part
   * @param position the argument's 0-based position, or -1 for other parts
   * @param name the argument's name where known ({@code arg0} otherwise), or the part's name
   * @param stored the closest entry's value (an argument's recorded description, a code version), or
   *     null where not recorded
   * @param current this call's value
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public record Difference(Component component, int position, String name, String stored, String current) {
    @Override
    public String toString() {
      return switch (component) {
        case CODE_VERSION -> "the code version differs (stored " + stored + ", now " + current + ")";
        case CAPTURED_VALUE -> "the captured values differ" + (stored == null ? "" : " (stored hash " + stored
            + ", now " + current + ")");
        case ARGUMENT -> "argument " + position + " (" + name + ") differs: stored " + (stored == null ? "?" : stored)
            + ", now " + current;
        case KEY_PART -> current == null ? name + ": absent now; then " + stored
            : name + ": now " + current + (stored == null ? " (absent then)" : "; then " + stored);
      };
    }
  }

  /**
   * A sentence a person reads.
   *
   * @return what hits or what differs
   */
  @Override
  public String toString() {
    if (cached) {
      return call + " hits: its entry is stored";
    }
    if (closest.isEmpty()) {
      return call + " misses: the function has no stored entries"
          + (differences.isEmpty() ? "" : "; " + differences.get(0) + " (its entries of older code were cleared)");
    }
    if (differences.isEmpty()) {
      return call + " misses: no stored entry for its key; the closest (" + closest.get().key()
          + ") differs in no part recorded (an ignored argument's change, or an entry of an older format)";
    }
    StringBuilder b = new StringBuilder(call).append(" misses; against the closest stored entry (")
        .append(closest.get().key()).append("): ");
    for (int i = 0; i < differences.size(); i++) {
      b.append(i == 0 ? "" : "; ").append(differences.get(i));
    }
    return b.toString();
  }
}
