package io.chronix.core.live;

import io.chronix.core.series.Points;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A series as the query plugin answers it to a caller in the process that asked for objects
 * ({@link InProcessQuery#SERIES}): its fields, each with its value (a String) or its values in
 * order (a SortedSet), its points, and the key that orders it among the answer's series (made
 * only when asked: where series the caller shows as one are joined, their order decides which
 * write wins a shared timestamp).
 */
public record InProcessSeries(Map<String, ?> fields, Points points, Supplier<String> sortKey) {}
