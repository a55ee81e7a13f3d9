package io.joblib4j;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What {@link Memory} records beside a cached result ({@code metadata.json} in the entry's folder),
 * and what {@link CacheValidation} callbacks decide on.
 *
 * @param function the function's short name ({@code Signals.hamming})
 * @param functionId the function's full identity (implementation class, method and descriptor)
 * @param codeVersion the hash of the function's bytecode when the result was computed
 * @param key the call key: the hash of identity, code version, captured values and arguments
 * @param computedAt when the computation finished
 * @param duration how long the function ran
 * @param inputArguments a short description of each argument, by name or position
 * @param outputBytes the size of the stored result
 * @param outputCrc32c the CRC32C of the stored result's bytes, as 8 hex digits
 * @param formatVersion the version of this layout (1)
 */
@API(status = API.Status.STABLE, since = "0.1")
public record CacheMetadata(
    String function,
    String functionId,
    String codeVersion,
    String key,
    Instant computedAt,
    Duration duration,
    Map<String, String> inputArguments,
    long outputBytes,
    String outputCrc32c,
    int formatVersion) {

  /**
   * Copies {@code inputArguments}, so that the record stays immutable.
   *
   * @param function the function's short name ({@code Signals.hamming})
   * @param functionId the function's full identity (implementation class, method and descriptor)
   * @param codeVersion the hash of the function's bytecode when the result was computed
   * @param key the call key: the hash of identity, code version, captured values and arguments
   * @param computedAt when the computation finished
   * @param duration how long the function ran
   * @param inputArguments a short description of each argument, by name or position
   * @param outputBytes the size of the stored result
   * @param outputCrc32c the CRC32C of the stored result's bytes, as 8 hex digits
   * @param formatVersion the version of this layout (1)
   */
  public CacheMetadata {
    inputArguments = Map.copyOf(inputArguments);
  }
}
