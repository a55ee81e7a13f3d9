package io.joblib4j.spark.stages.internal;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.Joblib;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stage call's key, component by component, so that {@code explain} can say which one differs
 * from a stored entry: each component is a name ({@code function}, {@code arg0.plan}, ...), a hash,
 * and what it covered for people.
 */
public final class KeyParts {
  private final LinkedHashMap<String, String> hashes = new LinkedHashMap<>();
  private final LinkedHashMap<String, String> described = new LinkedHashMap<>();
  private final List<String> inputs = new ArrayList<>();

  public KeyParts add(String component, String hash, String description) {
    hashes.put(component, hash);
    described.put(component, description);
    return this;
  }

  public KeyParts input(String description) {
    inputs.add(description);
    return this;
  }

  /** The key: the hash of every component's name and hash, in order. */
  public String key() {
    List<String> flat = new ArrayList<>();
    for (Map.Entry<String, String> e : hashes.entrySet()) {
      flat.add(e.getKey());
      flat.add(e.getValue());
    }
    return Joblib.hash(flat, HashAlgorithm.XXH3_128);
  }

  public LinkedHashMap<String, String> hashes() {
    return new LinkedHashMap<>(hashes);
  }

  public LinkedHashMap<String, String> described() {
    return new LinkedHashMap<>(described);
  }

  public List<String> inputs() {
    return List.copyOf(inputs);
  }
}
