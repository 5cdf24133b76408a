package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.KeptBlocks;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

class RecordCacheTest {

  @Test
  void keepsRecordsPerSegmentAndNumber() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 2, 100);
      writer.commit();
      add(writer, 2, 100); // a second segment: its documents are numbered from 0 again
      writer.commit();
      RecordCache cache = new RecordCache(1 << 20);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        assertEquals(2, reader.leaves().size());
        LeafReader first = reader.leaves().get(0).reader();
        LeafReader second = reader.leaves().get(1).reader();
        ReadRecord record = ReadRecord.of(first.storedFields().document(0));
        cache.put(first, 0, record);
        assertSame(record, cache.get(first, 0));
        assertNull(cache.get(first, 1));
        assertNull(cache.get(second, 0), "document 0 of another segment is another record");
        // the reader reopened after more records (as Solr's searcher after a soft commit)
        // shares the unchanged segment and finds the record again
        add(writer, 1, 100);
        writer.commit();
        try (DirectoryReader reopened = DirectoryReader.openIfChanged(reader)) {
          assertEquals(3, reopened.leaves().size());
          assertSame(record, cache.get(reopened.leaves().get(0).reader(), 0));
        }
      }
    }
  }

  @Test
  void keepsARecordWithoutItsBlobApartFromTheWholeRecord() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 1, 100);
      writer.commit();
      RecordCache cache = new RecordCache(1 << 20);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader segment = reader.leaves().get(0).reader();
        ReadRecord whole = ReadRecord.of(segment.storedFields().document(0));
        ReadRecord withoutBlob = ReadRecord.of(segment.storedFields().document(0, java.util.Set.of("id", "count", "start", "end")));
        assertNull(withoutBlob.blob());
        cache.putWithoutBlob(segment, 0, withoutBlob);
        assertNull(cache.get(segment, 0), "a record without its blob does not answer for the whole one");
        assertSame(withoutBlob, cache.getWithoutBlob(segment, 0));
        cache.put(segment, 0, whole);
        assertSame(whole, cache.get(segment, 0));
        assertSame(withoutBlob, cache.getWithoutBlob(segment, 0));
        assertNull(RecordCache.NONE.getWithoutBlob(segment, 0));
      }
    }
  }

  @Test
  void staysWithinItsBytes() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 50, 4_000);
      writer.commit();
      RecordCache cache = new RecordCache(40_000);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader segment = reader.leaves().get(0).reader();
        for (int doc = 0; doc < 50; doc++) {
          cache.put(segment, doc, ReadRecord.of(segment.storedFields().document(doc)));
        }
        assertTrue(cache.bytes() <= 40_000, "cached bytes " + cache.bytes());
        assertTrue(cache.size() >= 5 && cache.size() < 10, "records of about 4 KB in 40 KB: " + cache.size());
      }
    }
  }

  @Test
  void dropsTheRecordsOfAClosedSegment() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 3, 100);
      writer.commit();
      add(writer, 3, 100);
      writer.commit();
      RecordCache cache = new RecordCache(1 << 20);
      DirectoryReader before = DirectoryReader.open(dir);
      for (var leaf : before.leaves()) {
        cache.put(leaf.reader(), 1, ReadRecord.of(leaf.reader().storedFields().document(1)));
      }
      assertEquals(2, cache.size());
      writer.forceMerge(1); // the merge replaces both segments; the old reader still holds them
      writer.commit();
      try (DirectoryReader merged = DirectoryReader.open(dir)) {
        LeafReader segment = merged.leaves().get(0).reader();
        cache.put(segment, 0, ReadRecord.of(segment.storedFields().document(0)));
        before.close();
        assertEquals(1, cache.size(), "only the merged segment's record is left");
        assertNotNull(cache.get(segment, 0));
      }
    }
  }

  @Test
  void aCacheOfNoBytesKeepsNothing() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 1, 100);
      writer.commit();
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader segment = reader.leaves().get(0).reader();
        RecordCache.NONE.put(segment, 0, ReadRecord.of(segment.storedFields().document(0)));
        assertNull(RecordCache.NONE.get(segment, 0));
        assertEquals(0, RecordCache.NONE.size());
      }
    }
    assertThrows(IllegalArgumentException.class, () -> new RecordCache(-1));
  }

  /**
   * A record's decoded blocks are kept by segment and number: taken back as kept, apart from
   * another record's and another segment's record of the same number.
   */
  @Test
  void keepsTheDecodedBlocksOfACachedRecord() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 2, 100);
      writer.commit();
      add(writer, 1, 100);
      writer.commit();
      RecordCache cache = new RecordCache(1 << 20);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader first = reader.leaves().get(0).reader();
        LeafReader second = reader.leaves().get(1).reader();
        assertSame(KeptBlocks.NONE, RecordCache.NONE.blocksOf(first).apply(0), "a cache of no bytes keeps nothing");
        KeptBlocks record = cache.blocksOf(first).apply(0);
        KeptBlocks.DecodedBlock block = block(4, 1.5);
        record.keep(2, block);
        assertSame(block, record.get(2));
        assertSame(block, cache.blocksOf(first).apply(0).get(2), "the record's blocks, asked again");
        assertNull(record.get(1));
        assertNull(cache.blocksOf(first).apply(1).get(2), "another record's");
        assertNull(cache.blocksOf(second).apply(0).get(2), "another segment's record of the same number");
        assertEquals(1, cache.blockCount());
      }
    }
  }

  /** The decoded blocks stay within a quarter of the cache's bytes, apart from the records'. */
  @Test
  void decodedBlocksStayWithinAQuarterOfItsBytes() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 1, 100);
      writer.commit();
      RecordCache cache = new RecordCache(40_000);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        LeafReader segment = reader.leaves().get(0).reader();
        ReadRecord record = ReadRecord.of(segment.storedFields().document(0));
        cache.put(segment, 0, record);
        KeptBlocks kept = cache.blocksOf(segment).apply(0);
        for (int b = 0; b < 100; b++) {
          kept.keep(b, block(64, b)); // about 1 KB each
        }
        assertTrue(cache.blockBytes() <= 10_000, "kept block bytes " + cache.blockBytes());
        assertTrue(cache.blockCount() >= 5 && cache.blockCount() < 10, "blocks of 1 KB in 10 KB: " + cache.blockCount());
        assertSame(record, cache.get(segment, 0), "the record itself stays");
      }
    }
  }

  /** A closed segment's blocks go with its records; a cache of no bytes keeps no blocks. */
  @Test
  void dropsTheBlocksOfAClosedSegment() throws Exception {
    try (Directory dir = new ByteBuffersDirectory(); IndexWriter writer = writer(dir)) {
      add(writer, 2, 100);
      writer.commit();
      RecordCache cache = new RecordCache(1 << 20);
      DirectoryReader before = DirectoryReader.open(dir);
      LeafReader old = before.leaves().get(0).reader();
      cache.blocksOf(old).apply(1).keep(0, block(8, 0));
      assertSame(KeptBlocks.NONE, RecordCache.NONE.blocksOf(old).apply(0));
      add(writer, 1, 100);
      writer.forceMerge(1);
      writer.commit();
      try (DirectoryReader merged = DirectoryReader.open(dir)) {
        LeafReader segment = merged.leaves().get(0).reader();
        KeptBlocks now = cache.blocksOf(segment).apply(1);
        assertNull(now.get(0), "the merged segment's record 1 has no blocks yet");
        now.keep(0, block(8, 1));
        assertEquals(2, cache.blockCount());
        before.close();
        assertEquals(1, cache.blockCount(), "only the merged segment's block is left");
        assertNotNull(now.get(0));
      }
    }
  }

  private static KeptBlocks.DecodedBlock block(int points, double value) {
    long[] timestamps = new long[points];
    double[] values = new double[points];
    for (int i = 0; i < points; i++) {
      timestamps[i] = i;
      values[i] = value;
    }
    return new KeptBlocks.DecodedBlock(timestamps, values);
  }

  private static IndexWriter writer(Directory dir) throws Exception {
    // no merges but the one a test asks for, so that each commit is a segment of its own
    return new IndexWriter(dir, new IndexWriterConfig().setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE));
  }

  private static void add(IndexWriter writer, int records, int blobBytes) throws Exception {
    for (int i = 0; i < records; i++) {
      Document document = new Document();
      document.add(new StoredField("id", "record-" + i));
      document.add(new StoredField("count", 1L));
      document.add(new StoredField("start", 1_000L));
      document.add(new StoredField("end", 1_000L));
      document.add(new StoredField("data", new byte[blobBytes]));
      writer.addDocument(document);
    }
  }
}
