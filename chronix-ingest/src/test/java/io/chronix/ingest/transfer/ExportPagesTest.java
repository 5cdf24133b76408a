package io.chronix.ingest.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Pages of an export sized by the points of the page before, halved where the store refuses one. */
class ExportPagesTest {

  @Test
  void pagesOfShortSeriesGrowByAtMostFourTimesUpToTheCap() {
    ExportPages pages = new ExportPages();
    assertEquals(50, pages.rows());
    pages.answered(50, 50 * 100L); // 100 points a series: 10,000 would fit
    assertEquals(200, pages.rows());
    pages.answered(200, 200 * 100L);
    assertEquals(800, pages.rows());
    pages.answered(800, 800 * 100L);
    assertEquals(3_200, pages.rows());
    pages.answered(3_200, 3_200 * 100L);
    assertEquals(ExportPages.MAX, pages.rows());
  }

  @Test
  void pagesOfLongSeriesShrinkToWhatFitsTheTarget() {
    ExportPages pages = new ExportPages();
    pages.answered(50, 50 * 250_000L); // four series of a quarter million points make the target
    assertEquals(4, pages.rows());
    pages.answered(4, 4 * 5_000_000L);
    assertEquals(1, pages.rows(), "never fewer than one series");
    pages.answered(0, 0);
    assertEquals(1, pages.rows(), "an empty page tells nothing");
  }

  @Test
  void aRefusedPageIsAskedAgainWithHalfTheSeriesDownToOne() {
    ExportPages pages = new ExportPages();
    int[] expected = {25, 12, 6, 3, 1};
    for (int rows : expected) {
      assertTrue(pages.refused());
      assertEquals(rows, pages.rows());
    }
    assertFalse(pages.refused(), "one series that does not fit cannot be split by series");
    assertEquals(1, pages.rows());
  }
}
