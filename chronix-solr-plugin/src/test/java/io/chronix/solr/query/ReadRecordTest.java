package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.record.BlockStats;
import io.chronix.core.record.RecordFields;
import io.chronix.core.record.RecordStats;
import java.util.List;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

class ReadRecordTest {

  /** A record's fields picked out once give what reading them from its stored fields gave. */
  @Test
  void givesWhatItsStoredFieldsGive() {
    Random random = new Random(29);
    List<JoinFields> joins = List.of(JoinFields.DEFAULT, JoinFields.parse("*"), JoinFields.parse("host"),
        JoinFields.parse("dc,host_l,name"));
    for (int round = 0; round < 300; round++) {
      Document document = randomRecord(random, round);
      ReadRecord record = ReadRecord.of(document);

      SeriesFields expected = new SeriesFields();
      expected.addAll(document);
      SeriesFields actual = new SeriesFields();
      record.addFieldsTo(actual);
      assertEquals(expected.values(), actual.values(), "round " + round);
      SeriesFields joined = new SeriesFields(); // into fields that hold some already
      joined.add("host", "h-other");
      expected = new SeriesFields();
      expected.add("host", "h-other");
      expected.addAll(document);
      record.addFieldsTo(joined);
      assertEquals(expected.values(), joined.values(), "round " + round);

      for (JoinFields join : joins) {
        assertEquals(join.keyOf(document), join.keyOf(record), join.toParam() + ", round " + round);
      }
      assertEquals(document.get(RecordFields.ID), record.id());
      assertEquals(document.getField(RecordFields.COUNT).numericValue().longValue(), record.count());
      assertEquals(document.getField(RecordFields.START).numericValue().longValue(), record.startMillis());
      assertEquals(document.getField(RecordFields.END).numericValue().longValue(), record.endMillis());
      BytesRef data = document.getBinaryValue(RecordFields.DATA);
      if (data == null) {
        assertNull(record.blob());
      } else {
        assertArrayEquals(java.util.Arrays.copyOfRange(data.bytes, data.offset, data.offset + data.length),
            record.blob());
      }
      if (document.getField(RecordFields.MIN) == null) {
        assertNull(record.stats());
      } else {
        assertEquals(new RecordStats(record.count(), num(document, RecordFields.MIN), num(document, RecordFields.MAX),
            num(document, RecordFields.SUM), num(document, RecordFields.FIRST), num(document, RecordFields.LAST)),
            record.stats());
      }
      long blobBytes = data == null ? 0 : data.length;
      assertTrue(record.bytes() >= blobBytes + 2L * record.id().length() + 128, "the cache weighs a record's blob and id");
      Document more = new Document();
      document.forEach(more::add);
      more.add(new StoredField("zone", "z-" + round));
      assertTrue(ReadRecord.of(more).bytes() > record.bytes(), "and its series fields");
    }
  }

  /** A series id cut from the record id is a string of its own, weighed; an id that is its series' own is weighed once. */
  @Test
  void theSeriesIdKeptBesideTheIdIsWeighed() {
    ReadRecord chunk = ReadRecord.of(record("a!cpu-1", 3));
    ReadRecord whole = ReadRecord.of(record("a!cpuX1", 3));
    assertEquals("a!cpu", chunk.seriesId());
    assertEquals("a!cpuX1", whole.seriesId());
    assertEquals(whole.bytes() + 2L * "a!cpu".length(), chunk.bytes());
  }

  /** A record read with its blob weighs the figures queries may keep of its blocks, and keeps them once. */
  @Test
  void theFiguresOfABlobsBlocksAreWeighedAndKeptOnce() {
    Document withBlob = record("a!cpu-1", 1025); // three blocks of 512
    withBlob.add(new StoredField(RecordFields.DATA, new byte[] {1, 2, 3}));
    ReadRecord record = ReadRecord.of(withBlob);
    assertEquals(ReadRecord.of(record("a!cpu-1", 1025)).bytes() + 3 + 128 + 3L * BlockStats.BYTES_A_BLOCK, record.bytes());
    assertSame(record.blockStats(3), record.blockStats(3));
  }

  @Test
  void aBlobThatFillsItsArrayIsTakenAsItIs() {
    Document document = record("a!cpu-1", 3);
    byte[] blob = {1, 2, 3};
    document.add(new StoredField(RecordFields.DATA, blob));
    assertSame(blob, ReadRecord.of(document).blob());
  }

  @Test
  void aRecordWithoutItsCountOrSpanIsAnError() {
    Document noCount = new Document();
    noCount.add(new StoredField(RecordFields.ID, "a!cpu-1"));
    noCount.add(new StoredField(RecordFields.START, 1L));
    noCount.add(new StoredField(RecordFields.END, 2L));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ReadRecord.of(noCount));
    assertTrue(e.getMessage().contains("a!cpu-1") && e.getMessage().contains(RecordFields.COUNT), e.getMessage());
    Document noId = new Document();
    assertThrows(IllegalStateException.class, () -> ReadRecord.of(noId));
  }

  private static Document randomRecord(Random random, int round) {
    Document document = record("a!series" + random.nextInt(5) + "-" + round, 1 + random.nextInt(1000));
    document.add(new StoredField(RecordFields.NAME, "m" + random.nextInt(3)));
    document.add(new StoredField(RecordFields.TYPE, random.nextBoolean() ? "metric" : "long"));
    if (random.nextBoolean()) {
      document.add(new StoredField("host", "h" + random.nextInt(4)));
    }
    if (random.nextBoolean()) {
      document.add(new StoredField("dc", "d" + random.nextInt(2)));
    }
    if (random.nextBoolean()) {
      document.add(new StoredField("host_l", (long) random.nextInt(9))); // a numeric attribute, as text in keys
    }
    if (random.nextBoolean()) {
      document.add(new StoredField(RecordFields.MIN, random.nextDouble()));
      document.add(new StoredField(RecordFields.MAX, random.nextDouble()));
      document.add(new StoredField(RecordFields.SUM, random.nextDouble()));
      document.add(new StoredField(RecordFields.FIRST, random.nextDouble()));
      document.add(new StoredField(RecordFields.LAST, random.nextDouble()));
    }
    if (random.nextBoolean()) {
      byte[] bytes = new byte[20 + random.nextInt(20)];
      random.nextBytes(bytes);
      int offset = random.nextInt(10);
      document.add(new StoredField(RecordFields.DATA, new BytesRef(bytes, offset, bytes.length - offset - random.nextInt(5))));
    }
    return document;
  }

  private static Document record(String id, long count) {
    Document document = new Document();
    document.add(new StoredField(RecordFields.ID, id));
    document.add(new StoredField(RecordFields.COUNT, count));
    document.add(new StoredField(RecordFields.START, 1_000L));
    document.add(new StoredField(RecordFields.END, 2_000L + count));
    return document;
  }

  private static double num(Document document, String field) {
    return document.getField(field).numericValue().doubleValue();
  }
}
