package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import io.undertow.Undertow;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.api.ServletStackTraces;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link CleanErrorsFilter} in a real Undertow servlet deployment on loopback, in front of a servlet that throws. */
class CleanErrorsFilterTest {
  /** Throws for every request, with a detail no client may see. */
  public static final class Failing extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) {
      throw new IllegalStateException("secret detail from deep inside");
    }
  }

  private Undertow server;
  private DeploymentManager deployment;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    deployment = Servlets.newContainer().addDeployment(Servlets.deployment()
        .setClassLoader(getClass().getClassLoader())
        .setContextPath("/")
        .setDeploymentName("clean-errors-test")
        .setServletStackTraces(ServletStackTraces.ALL)
        .addServlet(Servlets.servlet("failing", Failing.class, new ImmediateInstanceFactory<>(new Failing())).addMapping("/mcp"))
        .addFilter(Servlets.filter("clean-errors", CleanErrorsFilter.class,
            new ImmediateInstanceFactory<>(new CleanErrorsFilter(Duration.ofMinutes(30)))))
        .addFilterUrlMapping("clean-errors", "/*", DispatcherType.REQUEST));
    deployment.deploy();
    server = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(deployment.start()).build();
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    http.close();
    server.stop();
    deployment.stop();
    deployment.undeploy();
  }

  @Test
  void anExceptionBehindItIsA500NamingALogReferenceWithoutTheDetail() throws Exception {
    int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(500);
    assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    JsonNode error = Json.read(answer.body(), JsonNode.class);
    assertThat(error.path("error").path("message").asText()).matches("internal error in the MCP endpoint; the hub log has the details under reference [0-9a-f]{8}");
    assertThat(answer.body()).doesNotContain("secret detail").doesNotContain("Exception").doesNotContain("<html");
  }
}
