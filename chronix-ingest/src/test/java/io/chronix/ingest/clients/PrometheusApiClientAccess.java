package io.chronix.ingest.clients;

import java.math.BigDecimal;

/** Float seconds of epoch milliseconds, as Prometheus' API and promtool take times. */
final class PrometheusApiClientAccess {

  private PrometheusApiClientAccess() {}

  static String seconds(long millis) {
    return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }
}
