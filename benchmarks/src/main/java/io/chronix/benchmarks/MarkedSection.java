package io.chronix.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A section of a Markdown file between two comment markers, rewritten by each benchmark run. */
public final class MarkedSection {

  private MarkedSection() {}

  /**
   * Puts {@code content} between {@code begin} and {@code end} (each a whole line, with its
   * newline), replacing what was there; the first time, appends heading and section to the file.
   */
  public static void write(Path file, String begin, String end, String content, String heading) throws IOException {
    String text = Files.readString(file);
    String section = begin + content + end;
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    if (from >= 0 && to > from) {
      text = text.substring(0, from) + section + text.substring(to + end.length());
    } else {
      text = text + (text.endsWith("\n") ? "\n" : "\n\n") + heading + section;
    }
    Files.writeString(file, text);
  }
}
