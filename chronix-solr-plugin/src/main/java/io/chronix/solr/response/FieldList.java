package io.chronix.solr.response;

import io.chronix.core.live.InProcessQuery;
import io.chronix.solr.query.FieldNames;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code fl} parameter of a series query. Empty, {@code *} or {@code -data}: every
 * descriptive field and no points. Named fields: just those. {@code dataAsJson} adds the points
 * as a JSON string, {@code points} as a JSON object (a string in other response formats),
 * {@code +data} (or {@code data}) as an encoded blob (docs/formats.md), base64 in JSON.
 */
public final class FieldList {

  public static final String DATA_AS_JSON = "dataAsJson";
  public static final String DATA = "data";
  public static final String POINTS = "points";

  private final Set<String> names;
  private final boolean all;
  private final boolean json;
  private final boolean blob;
  private final boolean points;
  /** The blob as the points themselves, for a caller in the process ({@link InProcessQuery}). */
  private final boolean inProcess;

  private FieldList(Set<String> names, boolean all, boolean json, boolean blob, boolean points, boolean inProcess) {
    this.names = names;
    this.all = all;
    this.json = json;
    this.blob = blob;
    this.points = points;
    this.inProcess = inProcess;
  }

  public static FieldList parse(String[] fl) {
    Set<String> names = new LinkedHashSet<>();
    if (fl != null) {
      for (String entry : fl) {
        names.addAll(FieldNames.split(entry));
      }
    }
    boolean json = names.remove(DATA_AS_JSON);
    boolean points = names.remove(POINTS);
    boolean blob = names.remove("+" + DATA) | names.remove(DATA);
    boolean noData = names.remove("-" + DATA);
    boolean all = names.isEmpty() || names.remove("*") || noData;
    return new FieldList(names, all, json, blob && !noData, points, false);
  }

  public boolean wants(String field) {
    return all || names.contains(field);
  }

  public boolean json() {
    return json;
  }

  public boolean blob() {
    return blob;
  }

  public boolean points() {
    return points;
  }

  /** The same list, with the {@code data} field as decoded points for a caller in the process. */
  public FieldList inProcess() {
    return new FieldList(names, all, json, blob, points, true);
  }

  /** Whether {@code data} holds the decoded points ({@link InProcessQuery}) rather than a blob. */
  public boolean dataAsObjects() {
    return inProcess;
  }

  /** Whether the answer carries points in any form (then it cannot come from record statistics). */
  public boolean anyPoints() {
    return json || blob || points;
  }
}
