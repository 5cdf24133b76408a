package io.chronix.ingest.security;

import io.chronix.ingest.http.HttpApi;
import java.util.Set;

/**
 * Which role a request needs, by path (docs/security.md). Anything not listed needs an
 * authenticated caller; anything under {@code /solr} that is not the read-only series and record
 * search of the collection is Solr's admin and update surface and needs {@link Role#ADMIN}.
 */
public final class AccessPolicy {

  /** What a path asks of its caller. */
  public enum Need {
    /** Anybody: health checks. */
    NOBODY(Set.of()),
    READ(Set.of(Role.READ)),
    WRITE(Set.of(Role.WRITE)),
    /** InfluxDB's {@code /query}: agents call it with their write credentials, dashboards with read. */
    READ_OR_WRITE(Set.of(Role.READ, Role.WRITE)),
    /** The server's own administration: flush, compact, status. */
    ADMIN(Set.of(Role.ADMIN)),
    /** Solr's admin and update handlers: never anonymous, whether auth is on or off. */
    SOLR_ADMIN(Set.of(Role.ADMIN)),
    /** A path no endpoint serves: any authenticated caller gets its 404. */
    ANY_CALLER(Set.of(Role.READ, Role.WRITE));

    private final Set<Role> anyOf;

    Need(Set<Role> anyOf) {
      this.anyOf = anyOf;
    }

    public boolean grantedTo(Set<Role> held) {
      if (anyOf.isEmpty()) {
        return true;
      }
      for (Role role : anyOf) {
        if (role.grantedBy(held)) {
          return true;
        }
      }
      return false;
    }

    public String describe() {
      return switch (this) {
        case NOBODY -> "nothing";
        case READ -> "the read role";
        case WRITE -> "the write role";
        case READ_OR_WRITE -> "the read or write role";
        case ADMIN, SOLR_ADMIN -> "the admin role";
        case ANY_CALLER -> "any role";
      };
    }
  }

  private static final Set<String> ADMIN_PATHS = Set.of("/flush", "/compact", "/status", "/admin/backup",
      "/admin/restore");

  // the collection's read-only handlers, made once rather than concatenated for every request
  private final String collectionQuery;
  private final String collectionSelect;

  public AccessPolicy(String collection) {
    this.collectionQuery = "/solr/" + collection + "/query";
    this.collectionSelect = "/solr/" + collection + "/select";
  }

  /**
   * The web console's own files (pages, scripts, the chart library): code, no data, so that the
   * console can load and then ask for credentials with its own form.
   */
  private static boolean isConsoleFile(String path) {
    return path.equals("/") || path.equals("/console") || path.startsWith("/console/")
        || path.startsWith("/webjars/");
  }

  public Need need(String path) {
    if (path.equals("/ping") || isConsoleFile(path)) {
      return Need.NOBODY;
    }
    if (path.equals("/metrics")) {
      return Need.READ;
    }
    if (HttpApi.WRITE_PATHS.contains(path)) {
      return Need.WRITE;
    }
    if (ADMIN_PATHS.contains(path) || path.startsWith("/api/v1/admin/")) {
      return Need.ADMIN;
    }
    if (path.equals("/query")) {
      return Need.READ_OR_WRITE;
    }
    if (path.equals("/api/v1/read") || path.startsWith("/api/v1/")) {
      return Need.READ;
    }
    if (path.equals("/solr") || path.startsWith("/solr/")) {
      return path.equals(collectionQuery) || path.equals(collectionSelect) ? Need.READ : Need.SOLR_ADMIN;
    }
    return Need.ANY_CALLER;
  }
}
