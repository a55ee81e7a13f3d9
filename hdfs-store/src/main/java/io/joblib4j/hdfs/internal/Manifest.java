package io.joblib4j.hdfs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code .jl4j-commit} file of an entry: which files it has, with their sizes and CRC32Cs, and
 * a publication id unique to the writer that published it. Readers use it to verify local copies
 * (and, in marker mode, as the proof that the entry is complete: it is written last).
 *
 * @param publication unique per publication, so a deleted and republished entry never matches an
 *     old local copy
 * @param publishedAt when the writer committed
 * @param files name to size and CRC32C, in the order written
 */
record Manifest(String publication, Instant publishedAt, Map<String, FileSum> files) {
  /** Format 1: each file at its own name. Format 2 adds where a file's bytes are: in an object of its
   *  writer's attempt, or inline in the manifest (marker mode). Both are read. */
  static final int FORMAT = 1;
  static final int FORMAT_WITH_PLACES = 2;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A file's size and CRC32C (as 8 lowercase hex digits, like metadata.json's outputCrc32c), and
   * where its bytes are: {@code object}, the name of the object in the entry's folder that holds
   * them (null: the file's own name), or {@code inline}, the bytes themselves (small files).
   */
  record FileSum(long bytes, String crc32c, String object, byte[] inline) {
    FileSum(long bytes, String crc32c) {
      this(bytes, crc32c, null, null);
    }

    FileSum at(String objectName) {
      return new FileSum(bytes, crc32c, objectName, null);
    }

    FileSum holding(byte[] content) {
      return new FileSum(bytes, crc32c, null, content);
    }

    /** The object holding the bytes of the file {@code name}, or null if they are inline. */
    String objectOf(String name) {
      return inline != null ? null : object != null ? object : name;
    }
  }

  Optional<FileSum> file(String name) {
    return Optional.ofNullable(files.get(name));
  }

  byte[] toJson() {
    ObjectNode root = JSON.createObjectNode();
    boolean places = files.values().stream().anyMatch(f -> f.object() != null || f.inline() != null);
    root.put("format", places ? FORMAT_WITH_PLACES : FORMAT);
    root.put("publication", publication);
    root.put("publishedAt", publishedAt.toString());
    ArrayNode list = root.putArray("files");
    files.forEach((name, sum) -> {
      ObjectNode f = list.addObject().put("name", name).put("bytes", sum.bytes()).put("crc32c", sum.crc32c());
      if (sum.object() != null) {
        f.put("object", sum.object());
      }
      if (sum.inline() != null) {
        f.put("inline", sum.inline()); // base64
      }
    });
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write a manifest", e);
    }
  }

  /**
   * Parses a manifest; a truncated, foreign or newer one is an IOException (in marker mode, an
   * entry whose manifest does not parse is not committed).
   */
  static Manifest parse(InputStream in, String where) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(in);
    } catch (IOException e) {
      throw new IOException("unreadable entry manifest " + where + ": " + e.getMessage(), e);
    }
    int format = root == null ? 0 : root.path("format").asInt();
    if (root == null || format != FORMAT && format != FORMAT_WITH_PLACES || !root.path("files").isArray()
        || !root.hasNonNull("publication")) {
      throw new IOException("not a joblib4j entry manifest (format " + FORMAT + " or " + FORMAT_WITH_PLACES + "): " + where);
    }
    Map<String, FileSum> files = new LinkedHashMap<>();
    for (JsonNode f : root.get("files")) {
      String object = f.hasNonNull("object") ? f.get("object").asText() : null;
      byte[] inline = f.hasNonNull("inline") ? f.get("inline").binaryValue() : null;
      files.put(f.path("name").asText(), new FileSum(f.path("bytes").asLong(-1), f.path("crc32c").asText(), object, inline));
    }
    Instant at;
    try {
      at = Instant.parse(root.path("publishedAt").asText());
    } catch (RuntimeException e) {
      throw new IOException("entry manifest " + where + " has a bad publishedAt", e);
    }
    return new Manifest(root.get("publication").asText(), at, files);
  }

  static Manifest of(String publication, Instant at, List<Map.Entry<String, FileSum>> written) {
    Map<String, FileSum> files = new LinkedHashMap<>();
    written.forEach(e -> files.put(e.getKey(), e.getValue()));
    return new Manifest(publication, at, files);
  }
}
