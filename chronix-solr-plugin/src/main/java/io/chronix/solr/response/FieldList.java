package io.chronix.solr.response;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code fl} parameter of a series query. Empty, {@code *} or {@code -data}: every
 * descriptive field and no points. Named fields: just those. {@code dataAsJson} adds the points
 * as JSON, {@code +data} (or {@code data}) as an encoded blob (docs/formats.md), base64 in JSON.
 */
public final class FieldList {

  public static final String DATA_AS_JSON = "dataAsJson";
  public static final String DATA = "data";

  private final Set<String> names;
  private final boolean all;
  private final boolean json;
  private final boolean blob;

  private FieldList(Set<String> names, boolean all, boolean json, boolean blob) {
    this.names = names;
    this.all = all;
    this.json = json;
    this.blob = blob;
  }

  public static FieldList parse(String[] fl) {
    Set<String> names = new LinkedHashSet<>();
    if (fl != null) {
      for (String entry : fl) {
        for (String name : entry.split("[,\\s]+")) {
          if (!name.isEmpty()) {
            names.add(name);
          }
        }
      }
    }
    boolean json = names.remove(DATA_AS_JSON);
    boolean blob = names.remove("+" + DATA) | names.remove(DATA);
    boolean noData = names.remove("-" + DATA);
    boolean all = names.isEmpty() || names.remove("*") || noData;
    return new FieldList(names, all, json, blob && !noData);
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
}
