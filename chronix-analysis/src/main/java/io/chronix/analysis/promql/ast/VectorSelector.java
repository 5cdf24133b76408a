package io.chronix.analysis.promql.ast;

import io.chronix.analysis.promql.model.LabelMatcher;
import java.util.List;

/**
 * {@code name{label="value",...} offset 5m @ 100}: the latest sample of every matching series
 * within the lookback window before each evaluation time.
 *
 * @param name the metric name as written before the braces, or null
 * @param matchers every matcher, the name's {@code __name__="..."} included
 * @param offsetMillis how far back in time to look (negative: forward)
 * @param at a fixed evaluation time, or null
 */
public record VectorSelector(String name, List<LabelMatcher> matchers, long offsetMillis, AtModifier at,
    Position position) implements Expr {

  public VectorSelector {
    matchers = List.copyOf(matchers);
  }

  @Override
  public ValueType type() {
    return ValueType.VECTOR;
  }

  public VectorSelector withOffset(long millis, Position extended) {
    return new VectorSelector(name, matchers, millis, at, extended);
  }

  public VectorSelector withAt(AtModifier modifier, Position extended) {
    return new VectorSelector(name, matchers, offsetMillis, modifier, extended);
  }
}
