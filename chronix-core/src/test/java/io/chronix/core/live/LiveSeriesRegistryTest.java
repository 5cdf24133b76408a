package io.chronix.core.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.series.SeriesKey;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class LiveSeriesRegistryTest {

  /** A new instance each time: a non-capturing lambda might be one shared object. */
  private static LiveSeries empty() {
    return new LiveSeries() {
      @Override
      public List<Buffered> snapshot(Predicate<SeriesKey> wanted) {
        return List.of();
      }
    };
  }

  @Test
  void findsTheRegisteredSourceUntilItUnregisters() {
    LiveSeries source = empty();
    LiveSeriesRegistry.register("registry-one", source);
    assertSame(source, LiveSeriesRegistry.find("registry-one").orElseThrow());
    assertTrue(LiveSeriesRegistry.find("registry-other").isEmpty());
    LiveSeriesRegistry.unregister("registry-one", source);
    assertTrue(LiveSeriesRegistry.find("registry-one").isEmpty());
  }

  @Test
  void registeringTheSameSourceTwiceKeepsIt() {
    LiveSeries source = empty();
    LiveSeriesRegistry.register("registry-twice", source);
    LiveSeriesRegistry.register("registry-twice", source);
    assertSame(source, LiveSeriesRegistry.find("registry-twice").orElseThrow());
    LiveSeriesRegistry.unregister("registry-twice", source);
    assertTrue(LiveSeriesRegistry.find("registry-twice").isEmpty());
  }

  @Test
  void twoSourcesOfOneCollectionHideBothUntilOneLeaves() {
    LiveSeries first = empty();
    LiveSeries second = empty();
    LiveSeriesRegistry.register("registry-shared", first);
    LiveSeriesRegistry.register("registry-shared", second);
    assertTrue(LiveSeriesRegistry.find("registry-shared").isEmpty(), "ambiguous: neither may answer");
    LiveSeriesRegistry.unregister("registry-shared", first);
    assertSame(second, LiveSeriesRegistry.find("registry-shared").orElseThrow());
    LiveSeriesRegistry.unregister("registry-shared", second);
    assertTrue(LiveSeriesRegistry.find("registry-shared").isEmpty());
  }

  @Test
  void unregisteringAnotherSourceLeavesTheRegisteredOne() {
    LiveSeries registered = empty();
    LiveSeriesRegistry.register("registry-foreign", registered);
    LiveSeriesRegistry.unregister("registry-foreign", empty());
    assertEquals(registered, LiveSeriesRegistry.find("registry-foreign").orElseThrow());
    LiveSeriesRegistry.unregister("registry-foreign", registered);
  }
}
