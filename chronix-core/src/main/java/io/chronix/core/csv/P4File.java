package io.chronix.core.csv;

import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;

/** One series read from a file of the Chronix benchmark ("P4") CSV format. */
public record P4File(SeriesKey key, Points points) {}
