package io.chronix.ingest.security;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a caller may do (docs/security.md): {@code write} points over the ingest endpoints,
 * {@code read} series and PromQL, {@code admin} flush, compact and reach Solr's own admin and
 * update handlers. Admin includes read and write.
 */
public enum Role {
  READ,
  WRITE,
  ADMIN;

  /** Parses a comma-separated list such as {@code read,write}. */
  public static Set<Role> parseList(String text, String where) {
    Set<Role> roles = EnumSet.noneOf(Role.class);
    for (String part : text.split(",")) {
      String name = part.trim();
      if (name.isEmpty()) {
        continue;
      }
      try {
        roles.add(valueOf(name.toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": unknown role '" + name + "' (roles: read, write, admin)");
      }
    }
    if (roles.isEmpty()) {
      throw new IllegalArgumentException(where + ": no role given (roles: read, write, admin)");
    }
    return roles;
  }

  /** Whether holding {@code held} grants this role. */
  public boolean grantedBy(Set<Role> held) {
    return held.contains(this) || held.contains(ADMIN);
  }
}
