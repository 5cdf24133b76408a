package io.chronix.ingest.solr;

import io.chronix.analysis.promql.engine.PointChanges;
import io.chronix.ingest.security.AccessPolicy;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Requests to the embedded node's own update and admin handlers (open to the admin role, or to all
 * with {@code solr.openAdminHandlers}) change records behind the server's back: before and after
 * each, every answer kept from the store's points is let go ({@link PointChanges#changedAll}).
 * The series query handlers pass unwatched, and so do GETs of the admin handlers that only report
 * (ping, luke, system, metrics, ...): a health check polling Solr's ping would otherwise let go of
 * every kept answer every few seconds. Any other handler counts as one that changes records.
 */
public final class SolrUpdateWatch extends HandlerWrapper {

  /** Admin handlers that report and change nothing, after {@code /solr} or {@code /solr/<core>}. */
  private static final List<String> REPORTING = List.of("/admin/ping", "/admin/luke", "/admin/system",
      "/admin/info", "/admin/metrics", "/admin/mbeans", "/admin/segments", "/admin/file", "/admin/plugins",
      "/admin/threads", "/admin/properties", "/admin/health");

  private final AccessPolicy policy;
  private final Supplier<PointChanges> changes;

  /** @param changes where to tell (asked at each request: the storage comes up after the node) */
  public SolrUpdateWatch(AccessPolicy policy, Supplier<PointChanges> changes) {
    this.policy = policy;
    this.changes = changes;
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
      throws IOException, ServletException {
    String path = baseRequest.getHttpURI().getDecodedPath();
    if (path == null || policy.need(path) != AccessPolicy.Need.SOLR_ADMIN
        || ("GET".equals(request.getMethod()) && reports(path))) {
      super.handle(target, baseRequest, request, response);
      return;
    }
    changes.get().changedAll(); // a query evaluated meanwhile keeps nothing
    try {
      super.handle(target, baseRequest, request, response);
    } finally {
      changes.get().changedAll();
    }
  }

  /** Whether the path names a reporting admin handler, of the node or of a core. */
  static boolean reports(String path) {
    for (String handler : REPORTING) {
      int at = path.indexOf(handler);
      if (at >= 0 && (at + handler.length() == path.length() || path.charAt(at + handler.length()) == '/')
          && path.lastIndexOf('/', at - 1) <= "/solr".length()) {
        return true;
      }
    }
    return false;
  }
}
