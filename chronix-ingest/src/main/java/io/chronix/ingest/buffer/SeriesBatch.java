package io.chronix.ingest.buffer;

import io.chronix.core.series.SeriesKey;

/**
 * Points of several series side by side, as a request's batch holds them, with a table of the
 * batch's distinct series: each point names its series by its place in that table, so that the
 * buffers, the log and the budget check handle a series once a batch rather than once a point.
 */
public interface SeriesBatch extends PointColumns {

  int size();

  /** How many distinct series the batch holds. */
  int seriesCount();

  /** A series of the table, {@code 0 <= series < seriesCount()}, in order of first appearance. */
  SeriesKey series(int series);

  /** The handle of a series of the table, through which the stages keep what they looked up for it. */
  SeriesHandle handle(int series);

  /** The place of point {@code index}'s series in the table. */
  int seriesOf(int index);

  /** The series of a point: the table's instance, the same for all points of one series. */
  default SeriesKey key(int index) {
    return series(seriesOf(index));
  }
}
