package io.chronix.solr.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.apache.solr.common.SolrInputDocument;

/**
 * What the tests of state kept per segment core ({@link OrdinalTexts}, {@link RecordSeriesRows},
 * {@link RecordOrdinals}) share: records of few names and a given number of hosts, some live
 * documents of a segment, and a segment of its own that nothing has kept state of yet.
 */
final class KeptPerSegment {

  /** Reads a segment. */
  interface SegmentTest {
    void run(LeafReader segment) throws Exception;
  }

  private KeptPerSegment() {}

  /** {@link SegmentedRecords} of {@link #record}s in four segments, three of them with a record deleted. */
  static void index(org.apache.solr.core.SolrCore core, int records, long seed, int hosts) throws Exception {
    SegmentedRecords.index(core, records, seed, (id, segment, random) -> record(id, random, hosts),
        List.of("r1-1", "r2-2", "r3-3"));
  }

  /**
   * A record of one of 7 names and of {@code hosts} hosts; a third of the hosts have a data centre,
   * whose value is not ASCII (decoded from UTF-8), the same for every record of the host.
   */
  static SolrInputDocument record(String id, Random random, int hosts) {
    SolrInputDocument record = new SolrInputDocument();
    record.addField("id", id);
    record.addField("name", "m" + random.nextInt(7));
    record.addField("type", "metric");
    record.addField("start", random.nextInt(1_000));
    record.addField("end", 1_000 + random.nextInt(1_000));
    int host = random.nextInt(hosts);
    record.addField("host", "h" + host);
    if (host % 3 == 0) {
      record.addField("dc", "dc-" + host % 5 + "-\u00e9");
    }
    record.addField("data", new byte[] {0});
    return record;
  }

  /** Some live documents of the segment, increasing, at most {@code maxStep} apart. */
  static int[] someDocs(LeafReader reader, Random random, int maxStep) {
    Bits live = reader.getLiveDocs();
    List<Integer> docs = new ArrayList<>();
    int every = 1 + random.nextInt(maxStep);
    for (int doc = random.nextInt(every); doc < reader.maxDoc(); doc += 1 + random.nextInt(every)) {
      if (live == null || live.get(doc)) {
        docs.add(doc);
      }
    }
    return docs.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Runs {@code test} on a segment of its own of the documents {@code document} makes, closed after. */
  static void onOwnSegment(int documents, IntFunction<Document> document, SegmentTest test) throws Exception {
    try (Directory directory = new ByteBuffersDirectory()) {
      try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
        for (int i = 0; i < documents; i++) {
          writer.addDocument(document.apply(i));
        }
      }
      try (DirectoryReader index = DirectoryReader.open(directory)) {
        test.run(index.leaves().get(0).reader());
      }
    }
  }
}
