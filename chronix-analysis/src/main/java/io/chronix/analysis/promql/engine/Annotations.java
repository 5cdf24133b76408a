package io.chronix.analysis.promql.engine;

import io.chronix.analysis.promql.ast.Position;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Warnings and infos a query collects while it runs, as Prometheus' API reports them: each message
 * ends with the position of the expression it is about. Collected once per message.
 */
public final class Annotations {

  private final String query;
  private final Set<String> warnings = new LinkedHashSet<>();
  private final Set<String> infos = new LinkedHashSet<>();

  public Annotations(String query) {
    this.query = query;
  }

  public void warn(String message, Position position) {
    warnings.add("PromQL warning: " + message + " (" + position.describe(query) + ")");
  }

  public void info(String message, Position position) {
    infos.add("PromQL info: " + message + " (" + position.describe(query) + ")");
  }

  public List<String> warnings() {
    return new ArrayList<>(warnings);
  }

  public List<String> infos() {
    return new ArrayList<>(infos);
  }
}
