package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/**
 * State kept per segment core: made once for a core, also through a reader reopened around it,
 * dropped with one call when the core closes, and never kept for a core that is closed already or
 * that takes no listener.
 */
class SegmentCoresTest {

  @Test
  void aCoreKeepsOneStateUntilItClosesAndItsDropIsCalledOnce() throws Exception {
    List<String> dropped = new ArrayList<>();
    SegmentCores<String> cores = new SegmentCores<>((core, state) -> dropped.add(state));
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
      writer.addDocument(new Document());
      writer.commit();
      DirectoryReader first = DirectoryReader.open(dir);
      LeafReader segment = first.leaves().get(0).reader();
      assertNull(cores.peek(segment));
      String state = cores.get(segment, core -> "state of " + core);
      assertSame(state, cores.get(segment, core -> "made again"));
      assertSame(state, cores.peek(segment));
      writer.addDocument(new Document());
      writer.commit();
      DirectoryReader reopened = DirectoryReader.openIfChanged(first);
      assertNotNull(reopened);
      assertSame(state, cores.get(reopened.leaves().get(0).reader(), core -> "made again"),
          "a reopened reader shares the unchanged core");
      first.close();
      assertEquals(List.of(), dropped, "the reopened reader still holds the core");
      reopened.close();
      assertEquals(List.of(state), dropped);
    }
  }

  @Test
  void aCoreClosedAlreadyOrDeafToListenersKeepsNothing() throws Exception {
    List<String> dropped = new ArrayList<>();
    SegmentCores<String> cores = new SegmentCores<>((core, state) -> dropped.add(state));
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig())) {
        writer.addDocument(new Document());
      }
      try (DirectoryReader index = DirectoryReader.open(dir)) {
        LeafReader segment = index.leaves().get(0).reader();
        assertNull(cores.get(withCoreHelper(segment, true), core -> "closed"));
        assertEquals(List.of("closed"), dropped, "made and dropped at once");
        assertNull(cores.get(withCoreHelper(segment, false), core -> "deaf"));
        assertNull(cores.peek(segment));
        assertEquals("open", cores.get(segment, core -> "open"));
      }
    }
    assertEquals(List.of("closed", "open"), dropped);
  }

  /** The reader with a core helper of the same key whose listener runs at once, or that refuses listeners. */
  static LeafReader withCoreHelper(LeafReader reader, boolean closed) {
    IndexReader.CacheKey key = reader.getCoreCacheHelper().getKey();
    IndexReader.CacheHelper helper = new IndexReader.CacheHelper() {
      @Override
      public IndexReader.CacheKey getKey() {
        return key;
      }

      @Override
      public void addClosedListener(IndexReader.ClosedListener listener) {
        if (!closed) {
          throw new UnsupportedOperationException("no listeners");
        }
        try {
          listener.onClose(key);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
    return new FilterLeafReader(reader) {
      @Override
      public IndexReader.CacheHelper getCoreCacheHelper() {
        return helper;
      }

      @Override
      public IndexReader.CacheHelper getReaderCacheHelper() {
        return null;
      }
    };
  }
}
