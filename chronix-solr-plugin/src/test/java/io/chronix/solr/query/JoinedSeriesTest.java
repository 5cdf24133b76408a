package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Points;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JoinedSeriesTest {

  /**
   * The sort compares join keys and looks at the fields only where one key's text begins another's:
   * the order must be that of the whole sort keys, which shards' answers are merged by.
   */
  @Test
  void sortsAsTheWholeSortKeysOrder() {
    Random random = new Random(7);
    String[] values = {null, "", "a", "ab", "a\u0002", "a\u0002\u0001b", "b", "\u0001", "zz"};
    for (int round = 0; round < 200; round++) {
      List<JoinedSeries> series = new ArrayList<>();
      int n = 1 + random.nextInt(30);
      for (int i = 0; i < n; i++) {
        List<String> key = Arrays.asList(values[random.nextInt(values.length)], values[random.nextInt(values.length)]);
        SeriesFields fields = new SeriesFields();
        fields.add("host", "h" + random.nextInt(5));
        if (random.nextBoolean()) {
          fields.add("dc", "d" + random.nextInt(3));
        }
        series.add(new JoinedSeries(key, fields, new Points(0)));
      }
      List<JoinedSeries> expected = new ArrayList<>(series);
      expected.sort(Comparator.comparing(JoinedSeries::sortKey));
      JoinedSeries.sort(series);
      assertEquals(expected.stream().map(JoinedSeries::sortKey).toList(), series.stream().map(JoinedSeries::sortKey).toList());
    }
  }
}
