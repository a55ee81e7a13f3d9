package io.joblib4j.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/** {@code --json} output: one JSON document on stdout, pretty-printed, with a schema version. */
public final class Json {
  /** Bumped when a field is renamed or removed; new fields may appear at any time. */
  public static final int SCHEMA = 1;
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  public static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  /** {@code {"schema": 1, "command": "...", "location": "...", ...}}. */
  public static ObjectNode document(String command, String location) {
    ObjectNode doc = object();
    doc.put("schema", SCHEMA);
    doc.put("command", command);
    doc.put("location", location);
    return doc;
  }

  public static void print(PrintStream out, ObjectNode doc) {
    try {
      out.println(MAPPER.writeValueAsString(doc));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
