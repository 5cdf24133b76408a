package io.chronix.ingest.security;

import io.chronix.ingest.http.JsonResponses;
import java.io.IOException;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Enforces the {@link AccessPolicy} on every HTTP path, the embedded Solr node's included, before
 * any servlet sees the request: 401 without (valid) credentials, 403 without the role.
 *
 * <p>With auth off every caller has every role, so a local user notices nothing, except that
 * Solr's own admin and update handlers stay closed (403) unless {@code solr.openAdminHandlers}
 * opens them: they can delete every record.
 */
public final class AccessHandler extends HandlerWrapper {

  static final String REALM = "chronix";
  /** Sent by the web console with every request it makes. */
  public static final String CONSOLE_HEADER = "X-Chronix-Console";

  private final AccessPolicy policy;
  private final Credentials credentials;
  private final boolean enabled;
  private final boolean openSolrAdmin;

  /**
   * @param enabled whether requests must authenticate
   * @param openSolrAdmin with auth off: let anonymous requests reach Solr's admin and update handlers
   */
  public AccessHandler(AccessPolicy policy, Credentials credentials, boolean enabled, boolean openSolrAdmin) {
    this.policy = policy;
    this.credentials = credentials;
    this.enabled = enabled;
    this.openSolrAdmin = openSolrAdmin;
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
      throws IOException, ServletException {
    String path = baseRequest.getHttpURI().getDecodedPath();
    AccessPolicy.Need need = policy.need(path == null ? "/" : path);
    if (!enabled) {
      if (need == AccessPolicy.Need.SOLR_ADMIN && !openSolrAdmin) {
        deny(baseRequest, response, 403, "Solr's admin and update handlers need the admin role: turn auth on "
            + "(docs/security.md) or, on a machine of your own, set solr.openAdminHandlers=true");
        return;
      }
      super.handle(target, baseRequest, request, response);
      return;
    }
    if (need == AccessPolicy.Need.NOBODY) {
      super.handle(target, baseRequest, request, response);
      return;
    }
    Credentials.Check check = credentials.check(request);
    if (check instanceof Credentials.Anonymous) {
      challenge(request, response);
      deny(baseRequest, response, 401, path + " needs " + need.describe() + ": send credentials (Basic or Bearer)");
    } else if (check instanceof Credentials.Refused refused) {
      challenge(request, response);
      deny(baseRequest, response, 401, refused.why());
    } else if (check instanceof Credentials.Busy) {
      response.setHeader("Retry-After", "1");
      deny(baseRequest, response, 503, "too many password checks at once; retry");
    } else {
      Credentials.Caller caller = ((Credentials.Accepted) check).caller();
      if (!need.grantedTo(caller.roles())) {
        deny(baseRequest, response, 403, caller.name() + " may not use " + path + ": it needs " + need.describe());
        return;
      }
      super.handle(target, baseRequest, request, response);
    }
  }
  /**
   * Asks for Basic credentials, except from the web console (header {@value #CONSOLE_HEADER}),
   * which shows its own login form: the challenge would make the browser pop up its dialog.
   */
  private static void challenge(HttpServletRequest request, HttpServletResponse response) {
    if (request.getHeader(CONSOLE_HEADER) == null) {
      response.setHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\"");
    }
  }


  private static void deny(Request baseRequest, HttpServletResponse response, int status, String message)
      throws IOException {
    baseRequest.setHandled(true);
    JsonResponses.error(response, status, message);
  }
}
