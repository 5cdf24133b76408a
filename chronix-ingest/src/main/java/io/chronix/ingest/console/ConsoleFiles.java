package io.chronix.ingest.console;

import java.io.IOException;
import java.net.URL;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.servlet.DefaultServlet;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * The web console's files, served from the server jar: its own pages and scripts under
 * {@code /console/} (resources {@code console/}) and the libraries it uses as WebJars from Maven
 * Central under {@code /webjars/} ({@code META-INF/resources/webjars/}). {@code /} leads to the
 * console. Nothing is fetched from elsewhere at run time.
 */
public final class ConsoleFiles {

  private ConsoleFiles() {}

  public static void mount(ServletContextHandler context) {
    context.addServlet(new ServletHolder("console-root", new ToConsole()), "");
    // the console's own files change with the server: revalidate (ETag) on every load
    context.addServlet(files("console", "/console/", "no-cache"), "/console/*");
    // a WebJar's path holds its version: a file there never changes
    context.addServlet(files("webjars", "/META-INF/resources/webjars/", "max-age=86400"), "/webjars/*");
  }

  private static ServletHolder files(String name, String classPathDir, String cacheControl) {
    URL base = ConsoleFiles.class.getResource(classPathDir);
    if (base == null) {
      throw new IllegalStateException("the server jar lacks " + classPathDir + ": the console cannot be served");
    }
    ServletHolder holder = new ServletHolder(name, DefaultServlet.class);
    holder.setInitParameter("resourceBase", base.toExternalForm());
    holder.setInitParameter("pathInfoOnly", "true");
    holder.setInitParameter("dirAllowed", "false");
    holder.setInitParameter("welcomeServlets", "false");
    holder.setInitParameter("redirectWelcome", "false");
    holder.setInitParameter("etags", "true");
    holder.setInitParameter("cacheControl", cacheControl);
    return holder;
  }

  /** {@code GET /}: the console. */
  private static final class ToConsole extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
      response.sendRedirect(request.getContextPath() + "/console/");
    }
  }
}
