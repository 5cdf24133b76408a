package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import java.util.TreeSet;
import org.apache.lucene.util.FixedBitSet;
import org.apache.solr.search.BitDocSet;
import org.apache.solr.search.SortedIntDocSet;
import org.junit.jupiter.api.Test;

class SortedIdsTest {

  @Test
  void aBitSetsDocumentsInOrderAtEveryWordsEdge() {
    Random random = new Random(5);
    for (int round = 0; round < 200; round++) {
      int maxDoc = 1 + random.nextInt(1_000);
      FixedBitSet bits = new FixedBitSet(maxDoc);
      TreeSet<Integer> expected = new TreeSet<>();
      double density = random.nextDouble();
      boolean[] fullWord = new boolean[(maxDoc + 63) / 64]; // every bit set: written out without a bit search
      for (int w = 0; w < fullWord.length; w++) {
        fullWord[w] = random.nextInt(3) == 0;
      }
      for (int doc = 0; doc < maxDoc; doc++) {
        if (random.nextDouble() < density || fullWord[doc / 64] || doc % 64 == 63 || doc % 64 == 0
            || doc == maxDoc - 1) {
          bits.set(doc);
          expected.add(doc);
        }
      }
      assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(),
          RecordReader.sortedIds(new BitDocSet(bits)), "round " + round);
    }
  }

  @Test
  void aSortedSetsDocumentsAsACopy() {
    int[] docs = {2, 9, 64, 65, 700};
    SortedIntDocSet set = new SortedIntDocSet(docs.clone());
    int[] ids = RecordReader.sortedIds(set);
    assertArrayEquals(docs, ids);
    ids[0] = 99;
    assertArrayEquals(docs, set.getDocs(), "the set, which a cache may hold, is left as it was");
  }
}
