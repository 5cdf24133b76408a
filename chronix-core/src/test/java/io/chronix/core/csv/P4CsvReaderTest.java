package io.chronix.core.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class P4CsvReaderTest {

  @TempDir Path dir;

  @Test
  void readsNameAttributesTimestampsAndThousandsSeparators() throws IOException {
    Path file = write("pre-int_base_jmx-all_pre-int_2015.08.12_19.23.02--\\CPU\\us.csv",
        "Date;\\CPU\\us\n12.08.2015 17:25:41.389;95,879,648\n12.08.2015 17:25:42.520;67.1\n");
    P4File series = new P4CsvReader().read(file);
    assertEquals("\\CPU\\us", series.key().name());
    assertEquals("pre-int", series.key().attributes().get("host"));
    assertEquals("base", series.key().attributes().get("process"));
    assertEquals("jmx-all_pre-int", series.key().attributes().get("group"));
    assertEquals(2, series.points().size());
    assertEquals(Instant.parse("2015-08-12T17:25:41.389Z").toEpochMilli() * 1_000_000L, series.points().timestamp(0));
    assertEquals(95_879_648d, series.points().value(0));
    assertEquals(67.1, series.points().value(1));
  }

  @Test
  void zoneIsConfigurable() throws IOException {
    Path file = write("h_p_g_2015.08.12_19.23.02--m.csv", "Date;m\n12.08.2015 17:25:41.389;1\n");
    long berlin = new P4CsvReader(ZoneId.of("Europe/Berlin")).read(file).points().timestamp(0);
    assertEquals(Instant.parse("2015-08-12T15:25:41.389Z").toEpochMilli() * 1_000_000L, berlin);
  }

  @Test
  void badLinesNameFileLineAndProblem() throws IOException {
    Path file = write("h_p_g_2015.08.12_19.23.02--m.csv", "Date;m\n12.08.2015 17:25:41.389;1\n12.08.2015 17:25:42.389;abc\n");
    CsvFormatException e = assertThrows(CsvFormatException.class, () -> new P4CsvReader().read(file));
    assertTrue(e.getMessage().contains(":3:") && e.getMessage().contains("not a number"), e.getMessage());
    Path badDate = write("h_p_g_2015.08.12_19.23.02--n.csv", "Date;m\n32.08.2015 17:25:41.389;1\n");
    e = assertThrows(CsvFormatException.class, () -> new P4CsvReader().read(badDate));
    assertTrue(e.getMessage().contains(":2:"), e.getMessage());
  }

  @Test
  void badFileNameIsReported() throws IOException {
    Path file = write("whatever.csv", "Date;m\n");
    CsvFormatException e = assertThrows(CsvFormatException.class, () -> new P4CsvReader().read(file));
    assertTrue(e.getMessage().contains("file name"), e.getMessage());
  }

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }
}
