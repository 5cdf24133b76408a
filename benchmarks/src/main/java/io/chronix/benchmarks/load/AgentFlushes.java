package io.chronix.benchmarks.load;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What one agent sends when it flushes: its last {@link LoadShape#FLUSH_SECONDS} gathers, one line
 * per plugin and second with all fields ({@code cpu,host=agent-0042 v0=1.2,...,v9=3.4 <seconds>}),
 * as Telegraf's InfluxDB output does. Each agent's flushes continue where its last one ended, so
 * no second is sent twice (which the server would merge and the report would overcount) even when
 * a flush is a little early; a late flush starts at the current second and leaves a gap, like a
 * stalled agent. Built with plain appends: the client shares the server's two cores.
 */
final class AgentFlushes {

  private final String[][] linePrefixes = new String[LoadShape.AGENTS][LoadShape.MEASUREMENTS.size()];
  private final AtomicLongArray lastSecond = new AtomicLongArray(LoadShape.AGENTS);

  AgentFlushes() {
    for (int agent = 0; agent < LoadShape.AGENTS; agent++) {
      for (int m = 0; m < LoadShape.MEASUREMENTS.size(); m++) {
        linePrefixes[agent][m] = LoadShape.MEASUREMENTS.get(m) + ",host=" + LoadShape.host(agent) + " ";
      }
    }
  }

  /** The body of the agent's next flush, timestamps in seconds ({@code precision=s}). */
  String next(int agent) {
    long now = System.currentTimeMillis() / 1000;
    long end = lastSecond.updateAndGet(agent, previous -> Math.max(now, previous + LoadShape.FLUSH_SECONDS));
    StringBuilder body = new StringBuilder(LoadShape.POINTS_PER_WRITE * 8);
    for (long second = end - LoadShape.FLUSH_SECONDS + 1; second <= end; second++) {
      for (int m = 0; m < LoadShape.MEASUREMENTS.size(); m++) {
        body.append(linePrefixes[agent][m]);
        for (int field = 0; field < LoadShape.FIELDS; field++) {
          if (field > 0) {
            body.append(',');
          }
          // a slow saw per series, one decimal: values change every second as gauges do
          long tenths = (agent * 7L + m * 13L + field * 31L + second) % 1000;
          body.append('v').append(field).append('=').append(tenths / 10).append('.').append(tenths % 10);
        }
        body.append(' ').append(second).append('\n');
      }
    }
    return body.toString();
  }
}
