package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Date;
import org.apache.solr.common.SolrException;
import org.junit.jupiter.api.Test;

class TimeRangeQueryTest {

  private static final Date NOW = Date.from(Instant.parse("2026-11-22T12:00:00Z"));

  @Test
  void epochMillisAreRewrittenToRecordOverlap() {
    TimeRangeQuery parsed = TimeRangeQuery.parse("name:cpu AND host:web1 AND start:1000 AND end:2000", NOW);
    assertEquals("name:cpu AND host:web1 AND end:[1000 TO *] AND start:[* TO 2000]", parsed.query());
    assertEquals(new TimeRange(1000, 2000), parsed.range());
    assertTrue(parsed.bounded());
  }

  @Test
  void isoInstantsAndDateMath() {
    TimeRangeQuery parsed = TimeRangeQuery.parse("name:cpu AND start:2015-08-12T17:25:41.389Z AND end:NOW-1DAY", NOW);
    assertEquals(Instant.parse("2015-08-12T17:25:41.389Z").toEpochMilli(), parsed.range().fromMillis());
    assertEquals(Instant.parse("2026-11-21T12:00:00Z").toEpochMilli(), parsed.range().toMillis());
    TimeRangeQuery quoted = TimeRangeQuery.parse("start:\"NOW/DAY\"", NOW);
    assertEquals(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli(), quoted.range().fromMillis());
    assertEquals(Long.MAX_VALUE, quoted.range().toMillis());
  }

  @Test
  void queriesWithoutRangeAreLeftAlone() {
    TimeRangeQuery parsed = TimeRangeQuery.parse("name:cpu AND host:restart:1", NOW);
    assertEquals("name:cpu AND host:restart:1", parsed.query());
    assertFalse(parsed.bounded());
    assertTrue(parsed.range().isAll());
    assertEquals("start:[0 TO 5]", TimeRangeQuery.parse("start:[0 TO 5]", NOW).query());
  }

  @Test
  void startAndEndInsideAQuotedValueAreText() {
    // a name may hold "start:" or "end:": rewritten, it would search another name and bound the range
    String q = "name:\"job start:5 end:yesterday\" OR host:x";
    TimeRangeQuery parsed = TimeRangeQuery.parse(q, NOW);
    assertEquals(q, parsed.query());
    assertFalse(parsed.bounded());
    // an escaped quote does not end the phrase; an escaped one outside opens none
    TimeRangeQuery escaped = TimeRangeQuery.parse("(name:\"a \\\" start:5\" OR name:b\\\"c) AND end:7", NOW);
    assertEquals("(name:\"a \\\" start:5\" OR name:b\\\"c) AND start:[* TO 7]", escaped.query());
    assertEquals(new TimeRange(Long.MIN_VALUE, 7), escaped.range());
    TimeRangeQuery after = TimeRangeQuery.parse("name:\"a\\\\\" AND start:5", NOW);
    assertEquals("name:\"a\\\\\" AND end:[5 TO *]", after.query());
  }

  @Test
  void epochMillisAreDigitsWithAMinusAllowed() {
    assertEquals(1439401468517L, TimeRangeQuery.parseInstant("start", "1439401468517", NOW));
    assertEquals(-5, TimeRangeQuery.parseInstant("start", "-5", NOW));
    assertEquals(0, TimeRangeQuery.parseInstant("start", "\"0\"", NOW));
    // not digits: date math or an ISO instant, else an error naming the clause
    assertEquals(NOW.getTime(), TimeRangeQuery.parseInstant("end", "NOW", NOW));
    assertEquals(Instant.parse("2015-08-12T17:25:41Z").toEpochMilli(),
        TimeRangeQuery.parseInstant("end", "2015-08-12T17:25:41Z", NOW));
    for (String bad : new String[] {"-", "", "12a", "+12", "1-2", "\u0661"}) {
      SolrException e = assertThrows(SolrException.class, () -> TimeRangeQuery.parseInstant("start", bad, NOW), bad);
      assertTrue(e.getMessage().contains("start:" + bad), e.getMessage());
    }
    SolrException e = assertThrows(SolrException.class, () -> TimeRangeQuery.parseInstant("start", "99999999999999999999", NOW));
    assertTrue(e.getMessage().contains("out of range"), e.getMessage());
  }

  @Test
  void badRangesAreClientErrors() {
    SolrException e = assertThrows(SolrException.class, () -> TimeRangeQuery.parse("start:yesterday", NOW));
    assertEquals(400, e.code());
    assertTrue(e.getMessage().contains("start:yesterday"), e.getMessage());
    e = assertThrows(SolrException.class, () -> TimeRangeQuery.parse("start:5 AND end:4", NOW));
    assertTrue(e.getMessage().contains("after end"), e.getMessage());
    e = assertThrows(SolrException.class, () -> TimeRangeQuery.parse("start:5 OR start:6", NOW));
    assertTrue(e.getMessage().contains("more than once"), e.getMessage());
  }

  @Test
  void rangeBoundariesInNanoseconds() {
    TimeRange range = new TimeRange(1, 2);
    assertEquals(1_000_000L, range.fromNanos());
    assertEquals(3_000_000L, range.toNanosExclusive());
    assertEquals(Long.MAX_VALUE, TimeRange.ALL.toNanosExclusive());
    assertEquals(Long.MIN_VALUE, TimeRange.ALL.fromNanos());
  }
}
