package io.joblib4j.spi.upkeep;

import io.joblib4j.MissExplanation;
import io.joblib4j.MissExplanation.Component;
import io.joblib4j.MissExplanation.Difference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The named parts a cache key is made of (a function's code version, its captured values, each
 * argument; a stage's plan, inputs and settings), each with its hash and a description for people,
 * and the one comparison behind {@code explain}: which parts of a call differ from a stored entry's,
 * as {@link MissExplanation.Difference}s. {@code Memory}'s and the stage cache's {@code explain} both
 * diff here, so that both say the same thing the same way.
 *
 * <pre>{@code
 * KeyParts now = new KeyParts().add(Component.ARGUMENT, 0, "n", "9f1c...", "2048");
 * KeyParts then = new KeyParts().add(Component.ARGUMENT, 0, "n", "77ab...", "1024");
 * KeyParts.differences(now, then);   // [argument 0 (n) differs: stored 1024, now 2048]
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class KeyParts {
  /** How long a description of a value may get before it is cut. */
  public static final int MAX_DESCRIPTION = 200;

  /**
   * One part of a key.
   *
   * @param component what kind of part
   * @param position an argument's 0-based position, or -1
   * @param name the part's name ({@code n}, {@code arg1.plan}, {@code code version})
   * @param hash its hash, or null where only its description was recorded (then descriptions compare)
   * @param description what it covered, for people, or null where not recorded
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public record Part(Component component, int position, String name, String hash, String description) {
    /**
     * Checks the fields.
     *
     * @param component what kind of part
     * @param position an argument's position, or -1
     * @param name the part's name
     * @param hash its hash, or null
     * @param description its description, or null
     * @throws NullPointerException if {@code component} or {@code name} is null
     */
    public Part {
      Objects.requireNonNull(component, "component");
      Objects.requireNonNull(name, "name");
    }

    private boolean sameAs(Part other) {
      return hash != null && other.hash != null ? hash.equals(other.hash)
          : description != null && description.equals(other.description);
    }
  }

  private final LinkedHashMap<String, Part> parts = new LinkedHashMap<>();

  /** An empty list of parts; add them in key order. */
  public KeyParts() {}

  /**
   * Adds a part (one of the same name is replaced).
   *
   * @param component what kind of part
   * @param position an argument's position, or -1
   * @param name the part's name
   * @param hash its hash, or null
   * @param description its description, or null
   * @return this
   */
  public KeyParts add(Component component, int position, String name, String hash, String description) {
    parts.put(name, new Part(component, position, name, hash, description));
    return this;
  }

  /**
   * The parts, in the order they were added.
   *
   * @return the parts
   */
  public List<Part> parts() {
    return List.copyOf(parts.values());
  }

  /**
   * The hash of each part by name, in order (what a stored record keeps).
   *
   * @return name to hash
   */
  public LinkedHashMap<String, String> hashes() {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    parts.forEach((name, p) -> out.put(name, p.hash()));
    return out;
  }

  /**
   * The description of each part by name, in order.
   *
   * @return name to description
   */
  public LinkedHashMap<String, String> described() {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    parts.forEach((name, p) -> out.put(name, p.description()));
    return out;
  }

  /**
   * The parts of a stored entry, from the hashes and descriptions its record keeps, every part of
   * the kind {@code component}.
   *
   * @param component the kind of every part
   * @param hashes name to hash, in key order
   * @param described name to description (may lack names)
   * @return the parts
   */
  public static KeyParts of(Component component, Map<String, String> hashes, Map<String, String> described) {
    KeyParts k = new KeyParts();
    hashes.forEach((name, hash) -> k.add(component, -1, name, hash, described.get(name)));
    return k;
  }

  /**
   * What differs between a call's parts and a stored entry's: a part whose hash (or, where a side
   * recorded no hash, whose description) differs, a part the call has and the entry had not, and
   * one the entry had and the call has not. In the call's order, then the entry's.
   *
   * @param now the call's parts
   * @param then the stored entry's parts
   * @return the differences, empty when every part is the same
   */
  public static List<Difference> differences(KeyParts now, KeyParts then) {
    List<Difference> out = new ArrayList<>();
    for (Part p : now.parts.values()) {
      Part before = then.parts.get(p.name());
      if (before == null || !p.sameAs(before)) {
        out.add(new Difference(p.component(), p.position(), p.name(), before == null ? null : before.description(),
            p.description()));
      }
    }
    for (Part before : then.parts.values()) {
      if (!now.parts.containsKey(before.name())) {
        out.add(new Difference(before.component(), before.position(), before.name(), before.description(), null));
      }
    }
    return out;
  }

  /**
   * A value as a key part's description shows it: its {@code toString()} cut to {@value
   * #MAX_DESCRIPTION} characters, an array by its type and length ({@code long[1000]}), and the
   * class's name where {@code toString()} throws.
   *
   * @param v the value, or null
   * @return the description
   */
  public static String describe(Object v) {
    String s;
    if (v == null) {
      s = "null";
    } else if (v.getClass().isArray()) {
      s = v.getClass().getComponentType().getSimpleName() + "[" + java.lang.reflect.Array.getLength(v) + "]";
    } else {
      try {
        s = String.valueOf(v);
      } catch (RuntimeException e) {
        s = v.getClass().getName();
      }
    }
    return s.length() <= MAX_DESCRIPTION ? s : s.substring(0, MAX_DESCRIPTION) + "...";
  }
}
