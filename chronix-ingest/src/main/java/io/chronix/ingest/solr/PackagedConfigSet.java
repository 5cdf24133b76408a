package io.chronix.ingest.solr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The {@code chronix} configset as the server jar carries it (built from
 * conf/solr/configsets/chronix): copied into the embedded node's core, or zipped for SolrCloud's
 * configset API.
 */
public final class PackagedConfigSet {

  /** Files of the configset, as packaged under chronix-configsets/chronix/conf. */
  private static final List<String> FILES = List.of("schema.xml", "solrconfig.xml");

  private PackagedConfigSet() {}

  /** Copies the files missing in {@code conf}: an operator's edits of the others survive restarts. */
  static void copyMissingTo(Path conf) throws IOException {
    Files.createDirectories(conf);
    for (String file : FILES) {
      Path target = conf.resolve(file);
      if (!Files.exists(target)) {
        try (InputStream in = open(file)) {
          Files.copy(in, target);
        }
      }
    }
  }

  /** The configset as a zip of its files at the root, the form SolrCloud's configset upload takes. */
  static byte[] zip() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String file : FILES) {
        zip.putNextEntry(new ZipEntry(file));
        try (InputStream in = open(file)) {
          in.transferTo(zip);
        }
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("zipping the packaged configset", e);
    }
    return bytes.toByteArray();
  }

  private static InputStream open(String file) {
    InputStream in = PackagedConfigSet.class.getResourceAsStream("/chronix-configsets/chronix/conf/" + file);
    if (in == null) {
      throw new IllegalStateException("configset file " + file + " missing from the server jar");
    }
    return in;
  }
}
