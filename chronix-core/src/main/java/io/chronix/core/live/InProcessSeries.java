package io.chronix.core.live;

import io.chronix.core.series.Points;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * A series as the query plugin answers it to a caller in the process that asked for objects
 * ({@link InProcessQuery#SERIES}): its fields, each with its values in order, and its points.
 */
public record InProcessSeries(SortedMap<String, SortedSet<String>> fields, Points points) {}
