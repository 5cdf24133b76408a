package io.chronix.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairedSlicesTest {

  /**
   * Every body goes to both servers once, a slice at a time, the first server changing every
   * slice; each side's time is the sum of its slices', and the slices' ratios come sorted.
   */
  @Test
  void everySliceGoesToBothServersTheFirstChangingEveryTime() throws Exception {
    List<byte[]> bodies = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      bodies.add(new byte[] {(byte) i});
    }
    IngestLoad load = new IngestLoad("seven", bodies, 70, 0, "text/plain; charset=utf-8", null);
    List<String> calls = new ArrayList<>();
    PairedSlices paired = PairedSlices.send(load, 3, part -> {
      calls.add("A" + first(part) + "+" + part.bodies().size());
      return 100;
    }, part -> {
      calls.add("B" + first(part) + "+" + part.bodies().size());
      return 50L * (first(part) + 1); // slices at bodies 0, 3, 6: 50, 200, 350
    });

    assertEquals(List.of("A0+3", "B0+3", "B3+3", "A3+3", "A6+1", "B6+1"), calls);
    assertEquals(300, paired.nanosA());
    assertEquals(600, paired.nanosB());
    assertEquals(2.0, paired.ratio());
    assertEquals(List.of(0.5, 2.0, 3.5), paired.ratios());
    assertEquals(2.0, paired.sliceRatio(0.5));
    assertEquals(0.5, paired.sliceRatio(0));
    assertEquals(3.5, paired.sliceRatio(1));
    assertEquals(70, load.slice(3, 6).values(), "a slice keeps the whole load's counts");
    assertThrows(IllegalArgumentException.class, () -> PairedSlices.send(load, 0, part -> 1, part -> 1));
  }

  private static int first(IngestLoad part) {
    return part.bodies().get(0)[0];
  }
}
