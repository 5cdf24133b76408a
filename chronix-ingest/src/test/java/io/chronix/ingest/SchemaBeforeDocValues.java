package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A store made by a release before the record fields had doc values: the server copies only missing
 * configset files, so such a store keeps its schema, and its records are read from stored fields.
 */
final class SchemaBeforeDocValues {

  private SchemaBeforeDocValues() {}

  /** Puts the packaged schema without doc values for id, name, type and the attributes into the data directory. */
  static void writeInto(Path dataDir) throws IOException {
    Path conf = dataDir.resolve("solr").resolve("chronix").resolve("conf");
    Files.createDirectories(conf);
    String schema;
    try (InputStream in = SchemaBeforeDocValues.class.getResourceAsStream("/chronix-configsets/chronix/conf/schema.xml")) {
      schema = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String before = schema.replaceAll(
        "(?m)^(\\s*<(?:field name=\"(?:id|name|type)\"|dynamicField)[^\\n]*?) docValues=\"true\"", "$1");
    assertTrue(before.length() < schema.length(), "the packaged schema gives indexed stored fields doc values");
    Files.writeString(conf.resolve("schema.xml"), before);
  }
}
