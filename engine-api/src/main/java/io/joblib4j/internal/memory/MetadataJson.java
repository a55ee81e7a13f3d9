package io.joblib4j.internal.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code metadata.json}, {@code function.json} and claims' {@code claim.json}, read and written with Jackson. */
final class MetadataJson {
  static final int FORMAT_VERSION = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  private MetadataJson() {}

  static byte[] write(CacheMetadata m) throws IOException {
    return write(m, null);
  }

  /**
   * {@code metadata.json}, with the call key's parts ({@code keyParts}: the captured values' hash and
   * each argument's, null for an ignored one) when given, so that {@code explain} can name what
   * differs. Readers of the first layout ignore the extra field; entries without it still load.
   */
  static byte[] write(CacheMetadata m, CallHashes parts) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("formatVersion", m.formatVersion());
    n.put("function", m.function());
    n.put("functionId", m.functionId());
    n.put("codeVersion", m.codeVersion());
    n.put("key", m.key());
    n.put("time", m.computedAt().toEpochMilli() / 1000.0);
    n.put("duration", m.duration().toNanos() / 1e9);
    ObjectNode args = n.putObject("inputArguments");
    m.inputArguments().forEach(args::put);
    n.put("outputBytes", m.outputBytes());
    n.put("outputCrc32c", m.outputCrc32c());
    if (parts != null) {
      ObjectNode k = n.putObject("keyParts");
      k.put("captured", parts.captured());
      com.fasterxml.jackson.databind.node.ArrayNode a = k.putArray("arguments");
      for (String h : parts.arguments()) {
        if (h == null) {
          a.addNull();
        } else {
          a.add(h);
        }
      }
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(n);
  }

  /** The key parts a {@code metadata.json} records, or null for an entry written before they were. */
  static CallHashes readKeyParts(JsonNode n) {
    JsonNode k = n.path("keyParts");
    if (!k.isObject() || !k.path("captured").isTextual() || !k.path("arguments").isArray()) {
      return null;
    }
    java.util.List<String> args = new java.util.ArrayList<>();
    k.path("arguments").forEach(a -> args.add(a.isTextual() ? a.asText() : null));
    return new CallHashes(k.path("captured").asText(), args);
  }

  /** A {@code metadata.json} with its key parts (null where not recorded). */
  record Read(CacheMetadata metadata, CallHashes parts) {}

  static Read readWithParts(InputStream in) throws IOException {
    JsonNode n = JSON.readTree(in);
    return new Read(fromTree(n), n == null ? null : readKeyParts(n));
  }

  private static CacheMetadata fromTree(JsonNode n) throws IOException {
    if (n == null || !n.isObject() || !n.has("key") || !n.has("time")) {
      throw new IOException("not a joblib4j metadata.json");
    }
    Map<String, String> args = new LinkedHashMap<>();
    n.path("inputArguments").fields().forEachRemaining(e -> args.put(e.getKey(), e.getValue().asText()));
    return new CacheMetadata(n.path("function").asText(), n.path("functionId").asText(),
        n.path("codeVersion").asText(), n.path("key").asText(),
        Instant.ofEpochMilli(Math.round(n.path("time").asDouble() * 1000)),
        Duration.ofNanos(Math.round(n.path("duration").asDouble() * 1e9)), args,
        n.path("outputBytes").asLong(-1), n.path("outputCrc32c").asText(""), n.path("formatVersion").asInt());
  }

  /** {@code function.json}: the function's identity and the code version of its entries. */
  static byte[] writeFunction(FunctionIdentity f) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("formatVersion", FORMAT_VERSION);
    n.put("function", f.name());
    n.put("functionId", f.id());
    n.put("codeVersion", f.codeVersion());
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(n);
  }

  /** The short name recorded in a {@code function.json}, or null. */
  static String readFunctionName(InputStream in) throws IOException {
    JsonNode n = JSON.readTree(in);
    return n != null && n.path("function").isTextual() ? n.path("function").asText() : null;
  }

  /** The (functionId, codeVersion) recorded in a {@code function.json}. */
  static String[] readFunction(InputStream in) throws IOException {
    JsonNode n = JSON.readTree(in);
    return new String[] {n.path("functionId").asText(), n.path("codeVersion").asText()};
  }
}
