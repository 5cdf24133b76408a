package io.chronix.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Bytes of a Lucene index by what its files hold (stored fields, doc values, points, terms). */
final class IndexSplit {

  private IndexSplit() {}

  static Map<String, Long> bytesByFileKind(Path index) throws IOException {
    Map<String, Long> split = new TreeMap<>();
    try (Stream<Path> files = Files.list(index)) {
      files.filter(Files::isRegularFile).forEach(file -> {
        String name = file.getFileName().toString();
        String extension = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
        split.merge(kind(extension), file.toFile().length(), Long::sum);
      });
    }
    return split;
  }

  private static String kind(String extension) {
    switch (extension) {
      case "fdt":
      case "fdx":
      case "fdm":
        return "stored fields (blobs)";
      case "dvd":
      case "dvm":
        return "doc values";
      case "kdd":
      case "kdi":
      case "kdm":
        return "points (start/end)";
      case "tim":
      case "tip":
      case "tmd":
      case "doc":
      case "pos":
        return "terms";
      default:
        return "other";
    }
  }
}
