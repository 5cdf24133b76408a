package io.chronix.ingest.metrics;

/**
 * What the server reports about itself: counters the endpoints feed, the figures, the last
 * problems, how long its requests took.
 */
public record Observability(IngestCounters counters, ServerMetrics metrics, RecentErrors errors,
    RequestDurations durations) {}
