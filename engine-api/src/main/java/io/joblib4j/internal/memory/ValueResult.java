package io.joblib4j.internal.memory;

import io.joblib4j.CacheMetadata;
import io.joblib4j.MemorizedResult;
import io.joblib4j.MissingCacheEntryException;
import java.io.Serial;
import java.util.Optional;

/** A result that is not stored (caching disabled, or the store failed): joblib's NotMemorizedResult. */
final class ValueResult implements MemorizedResult<Object> {
  @Serial private static final long serialVersionUID = 1L;
  private Object value;
  private boolean cleared;
  private final String function;

  ValueResult(Object value, String function) {
    this.value = value;
    this.function = function;
  }

  @Override
  public Object get() {
    if (cleared) {
      throw new MissingCacheEntryException("No value stored: the result of " + function + " was cleared");
    }
    return value;
  }

  @Override
  public void clear() {
    cleared = true;
    value = null;
  }

  @Override
  public Optional<CacheMetadata> metadata() {
    return Optional.empty();
  }

  @Override
  public String function() {
    return function;
  }

  @Override
  public String key() {
    return "";
  }

  @Override
  public String toString() {
    return "NotMemorizedResult(function=\"" + function + "\")";
  }
}
