package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.Field;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/** Bounds are kept for one view of the index and read again for the next: a kept one must not outlive its view. */
class IndexBoundsTest {

  @Test
  void eachViewOfTheIndexHasItsOwnBounds() throws Exception {
    try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
        IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
      writer.addDocument(record(100, 200));
      writer.addDocument(record(150, 300));
      writer.commit();
      try (DirectoryReader first = DirectoryReader.open(directory)) {
        IndexBounds start = IndexBounds.of(first, "start");
        assertEquals(new IndexBounds(100, 150, true), start);
        assertEquals(new IndexBounds(200, 300, true), IndexBounds.of(first, "end"));
        assertEquals(start, IndexBounds.of(first, "start"), "asked again of the same view");

        writer.addDocument(record(50, 400));
        Document without = new Document(); // a record without the fields: not every record has one
        without.add(new StringField("id", "x", Field.Store.NO));
        writer.addDocument(without);
        writer.commit();
        try (DirectoryReader second = DirectoryReader.openIfChanged(first)) {
          assertEquals(new IndexBounds(50, 150, false), IndexBounds.of(second, "start"));
          assertEquals(new IndexBounds(200, 400, false), IndexBounds.of(second, "end"));
          assertEquals(IndexBounds.Cover.SOME, IndexBounds.of(second, "start").against(0, 1_000));
          // the first view is still open and still as it was
          assertEquals(new IndexBounds(100, 150, true), IndexBounds.of(first, "start"));
          assertEquals(IndexBounds.Cover.ALL, IndexBounds.of(first, "start").against(0, 1_000));
        }
      }
      try (DirectoryReader empty = DirectoryReader.open(directory)) {
        IndexBounds none = IndexBounds.of(empty, "missing");
        assertFalse(none.everyRecord());
        assertEquals(IndexBounds.Cover.NONE, none.against(Long.MIN_VALUE, Long.MAX_VALUE));
        assertTrue(IndexBounds.of(empty, "start").min() <= 50);
      }
    }
  }

  private static Document record(long start, long end) {
    Document record = new Document();
    record.add(new LongPoint("start", start));
    record.add(new LongPoint("end", end));
    return record;
  }
}
