package io.joblib4j.spark.stages.internal;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stage entry's {@code entry.json}: what the entry is (stage, key, the key's components), where its
 * data is and what it holds (files with sizes, schema, rows). Written once, by the writer that
 * publishes the entry; plain JSON that the command line reads without Spark (FORMAT.md).
 *
 * @param format the record's format version, {@value #FORMAT}
 * @param stage the stage folder ({@code Pipeline.clean-1a2b3c4d5e6f})
 * @param name the stage function's name for people
 * @param identity the stage function's identity
 * @param key the entry's key, 32 hex digits
 * @param created when the entry was published, ISO-8601
 * @param data the data folder under {@code stages/<stage>/data/}: {@code <key>.<attempt>}
 * @param storage {@code format}, {@code compression}, {@code partitionBy}
 * @param schema the data's Spark schema, as Spark's JSON
 * @param rows the rows written
 * @param bytes the bytes of the data files
 * @param files each data file, relative to the data folder, with its size
 * @param components the key's components: name to 32 hex digits, in key order
 * @param described the components for people: what each one covered
 * @param inputs the stage's inputs for people (file folders with file counts, other stages' entries)
 * @param sparkVersion the Spark version that wrote it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EntryRecord(
    int format,
    String stage,
    String name,
    String identity,
    String key,
    String created,
    String data,
    Map<String, Object> storage,
    String schema,
    long rows,
    long bytes,
    List<DataFile> files,
    LinkedHashMap<String, String> components,
    LinkedHashMap<String, String> described,
    List<String> inputs,
    String sparkVersion) {

  /** The version of this record's layout; a reader skips records of a newer major. */
  public static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /**
   * One data file.
   *
   * @param path relative to the data folder, {@code /}-separated (partition folders included)
   * @param bytes its size
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record DataFile(String path, long bytes) {}

  public byte[] toJson() {
    try {
      return JSON.writeValueAsBytes(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The record in {@code json}; throws IOException if it is not one this version can read. */
  public static EntryRecord parse(byte[] json) throws IOException {
    EntryRecord r;
    try {
      r = JSON.readValue(json, EntryRecord.class);
    } catch (RuntimeException e) {
      throw new IOException("not a stage entry record: " + e.getMessage(), e);
    }
    if (r == null || r.format() != FORMAT || r.key() == null || r.data() == null || r.files() == null
        || r.schema() == null || !StageLayout.isKey(r.key()) || StageLayout.keyOfDataFolder(r.data()).isEmpty()) {
      throw new IOException("not a stage entry record of format " + FORMAT + " (format " + (r == null ? "?" : r.format())
          + ", key " + (r == null ? "?" : r.key()) + ")");
    }
    return r;
  }
}
