package io.chronix.core.csv;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reads the CSV format of the Chronix benchmark data: file name
 * {@code <host>_<process>_<group>_<yyyy.MM.dd_HH.mm.ss>--<metric>.csv[.gz]}, a header
 * {@code Date;<metric>} and lines {@code dd.MM.yyyy HH:mm:ss.SSS;value} where {@code ,} separates
 * thousands. The metric in the header is the series name; host, process and group become
 * attributes. Timestamps carry no zone and are read in the configured one (UTC by default).
 */
public final class P4CsvReader {

  private static final Pattern FILE_NAME =
      Pattern.compile("([^_]+)_([^_]+)_(.+)_(\\d{4}\\.\\d{2}\\.\\d{2}_\\d{2}\\.\\d{2}\\.\\d{2})--(.+?)\\.csv(\\.gz)?");

  private final ZoneId zone;

  public P4CsvReader() {
    this(ZoneOffset.UTC);
  }

  public P4CsvReader(ZoneId zone) {
    this.zone = zone;
  }

  public P4File read(Path file) throws IOException {
    String fileName = file.getFileName().toString();
    Matcher matcher = FILE_NAME.matcher(fileName);
    if (!matcher.matches()) {
      throw new CsvFormatException(
          file + ": file name is not <host>_<process>_<group>_<yyyy.MM.dd_HH.mm.ss>--<metric>.csv[.gz]");
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("host", matcher.group(1));
    attributes.put("process", matcher.group(2));
    attributes.put("group", matcher.group(3));
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = fileName.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
      String header = reader.readLine();
      String name = matcher.group(5);
      int lineNumber = 1;
      if (header == null) {
        throw new CsvFormatException(file + ": empty file");
      }
      int separator = header.indexOf(';');
      if (header.startsWith("Date;") && separator + 1 < header.length()) {
        name = header.substring(separator + 1);
      } else {
        throw new CsvFormatException(file + ":1: header must be 'Date;<metric>', found '" + header + "'");
      }
      Points points = new Points(4096);
      DayCache days = new DayCache(zone);
      String line;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        if (line.isEmpty()) {
          continue;
        }
        try {
          parseLine(line, days, points);
        } catch (RuntimeException e) {
          throw new CsvFormatException(file + ":" + lineNumber + ": " + e.getMessage() + " in '" + line + "'");
        }
      }
      return new P4File(SeriesKey.metric(name, attributes), points);
    }
  }

  private static void parseLine(String line, DayCache days, Points points) {
    // dd.MM.yyyy HH:mm:ss.SSS;value
    if (line.length() < 25 || line.charAt(23) != ';' || line.charAt(2) != '.' || line.charAt(5) != '.'
        || line.charAt(10) != ' ' || line.charAt(13) != ':' || line.charAt(16) != ':' || line.charAt(19) != '.') {
      throw new IllegalArgumentException("expected 'dd.MM.yyyy HH:mm:ss.SSS;value'");
    }
    int day = digits(line, 0, 2);
    int month = digits(line, 3, 5);
    int year = digits(line, 6, 10);
    int hour = digits(line, 11, 13);
    int minute = digits(line, 14, 16);
    int second = digits(line, 17, 19);
    int milli = digits(line, 20, 23);
    if (hour > 23 || minute > 59 || second > 59) {
      throw new IllegalArgumentException("time of day out of range");
    }
    long epochMillis = days.epochMillis(year, month, day, hour, minute, second) + milli;
    String value = line.substring(24);
    if (value.indexOf(',') >= 0) {
      value = value.replace(",", "");
    }
    double parsed;
    try {
      parsed = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("value '" + line.substring(24) + "' is not a number");
    }
    points.add(epochMillis * 1_000_000L, parsed);
  }

  private static int digits(String line, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = line.charAt(i);
      if (c < '0' || c > '9') {
        throw new IllegalArgumentException("digit expected at column " + (i + 1));
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** Consecutive lines share their day; caching it keeps java.time out of the per-line path. */
  private static final class DayCache {
    private final ZoneId zone;
    private int key = -1;
    private long millis;

    DayCache(ZoneId zone) {
      this.zone = zone;
    }

    long epochMillis(int year, int month, int day, int hour, int minute, int second) {
      if (!zone.getRules().isFixedOffset()) {
        // daylight saving shifts the offset within a day: no shortcut
        return java.time.LocalDateTime.of(year, month, day, hour, minute, second)
            .atZone(zone).toInstant().toEpochMilli();
      }
      return startOfDayMillis(year, month, day) + ((hour * 60L + minute) * 60 + second) * 1000;
    }

    private long startOfDayMillis(int year, int month, int day) {
      int candidate = (year * 100 + month) * 100 + day;
      if (candidate != key) {
        try {
          millis = LocalDate.of(year, month, day).atStartOfDay(zone).toInstant().toEpochMilli();
        } catch (java.time.DateTimeException e) {
          throw new IllegalArgumentException("no such date: " + e.getMessage());
        }
        key = candidate;
      }
      return millis;
    }
  }
}
