package io.joblib4j.spark.stages.internal;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.Joblib;
import io.joblib4j.MissExplanation.Component;
import io.joblib4j.spi.upkeep.KeyParts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stage call's key, part by part ({@link KeyParts}, shared with Memory's {@code explain}): each
 * part a name ({@code function}, {@code arg0.plan}, ...), a hash, and what it covered for people;
 * plus the stage's inputs for people. The key is the hash of every part's name and hash, in order.
 */
public final class StageKey {
  private final KeyParts parts = new KeyParts();
  private final List<String> inputs = new ArrayList<>();

  public StageKey add(String component, String hash, String description) {
    parts.add(Component.KEY_PART, -1, component, hash, description);
    return this;
  }

  public StageKey input(String description) {
    inputs.add(description);
    return this;
  }

  /** The key: the hash of every part's name and hash, in order. */
  public String key() {
    List<String> flat = new ArrayList<>();
    for (Map.Entry<String, String> e : parts.hashes().entrySet()) {
      flat.add(e.getKey());
      flat.add(e.getValue());
    }
    return Joblib.hash(flat, HashAlgorithm.XXH3_128);
  }

  public KeyParts parts() {
    return parts;
  }

  public LinkedHashMap<String, String> hashes() {
    return parts.hashes();
  }

  public LinkedHashMap<String, String> described() {
    return parts.described();
  }

  public List<String> inputs() {
    return List.copyOf(inputs);
  }
}
