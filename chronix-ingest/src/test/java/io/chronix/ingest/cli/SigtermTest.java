package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.record.RecordFields;
import io.chronix.core.series.Points;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.wal.FsyncPolicy;
import io.chronix.ingest.wal.WriteAheadLog;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chronix start} in its own JVM: SIGTERM writes buffered points before the process ends.
 * Checked on what the stopped server left on disk, not through a restart (which would replay the
 * log and hide a stop that wrote nothing): the index holds the point, the log holds nothing.
 */
class SigtermTest {

  @TempDir Path dataDir;

  @Test
  void sigtermWritesBufferedPointsAndEmptiesTheLog() throws Exception {
    // chunk.maxAge of an hour: nothing but the stop writes the point
    try (ServerProcess server = ServerProcess.start(dataDir, "chunk.maxAge=1h")) {
      HttpResponse<String> write = TestHttp.CLIENT.send(
          HttpRequest.newBuilder(URI.create(server.baseUrl() + "/write?precision=s"))
              .POST(HttpRequest.BodyPublishers.ofString("term value=42 1700000000")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(204, write.statusCode(), write.body());
      assertTrue(server.terminate(60), "server stops within a minute");
    }

    Path index = dataDir.resolve("solr").resolve("chronix").resolve("data").resolve("index");
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(index))) {
      IndexSearcher searcher = new IndexSearcher(reader);
      ScoreDoc[] records = searcher.search(new TermQuery(new Term(RecordFields.NAME, "term")), 10).scoreDocs;
      assertEquals(1, records.length, "the stop wrote and committed one record");
      BytesRef blob = searcher.storedFields().document(records[0].doc).getBinaryValue(RecordFields.DATA);
      Points points = ChunkCodec.decode(java.util.Arrays.copyOfRange(blob.bytes, blob.offset, blob.offset + blob.length));
      assertEquals(1, points.size());
      assertEquals(1_700_000_000_000_000_000L, points.timestamp(0));
      assertEquals(42.0, points.value(0));
    }

    Path log = dataDir.resolve("wal");
    Path copy = dataDir.resolve("wal-copy");
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(log)) {
      for (Path file : files.toList()) {
        Files.copy(file, copy.resolve(file.getFileName()));
      }
    }
    AtomicLong logged = new AtomicLong();
    try (WriteAheadLog wal = new WriteAheadLog(copy, 1 << 20, FsyncPolicy.NEVER, 1000)) {
      wal.replay((batch, segment) -> logged.addAndGet(batch.size()));
    }
    assertEquals(0, logged.get(), "the stop checkpointed the log: nothing left to replay");
  }
}
