package dev.roundhouse.calendaragent.caldav;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import java.util.Optional;

/**
 * The little WebDAV XML the CalDAV client needs: request bodies, and {@code multistatus} responses read with
 * the JDK's namespace-aware DOM (no DOCTYPE, no external entities). Stateless.
 */
final class DavXml {
  static final String DAV = "DAV:";
  static final String CALDAV = "urn:ietf:params:xml:ns:caldav";
  static final String CS = "http://calendarserver.org/ns/";

  private DavXml() {}

  /** One {@code response} of a multistatus: its href, status (of the response or its 200 propstat) and properties. */
  record Response(String href, int status, String etag, String calendarData, String ctag, String syncToken) {}

  record MultiStatus(List<Response> responses, String syncToken) {}

  static String ctagQuery() {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propfind xmlns:D=\"DAV:\" xmlns:CS=\"" + CS + "\">"
        + "<D:prop><CS:getctag/><D:sync-token/></D:prop></D:propfind>";
  }

  static String etagQuery() {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propfind xmlns:D=\"DAV:\"><D:prop><D:getetag/></D:prop></D:propfind>";
  }

  static String syncCollection(String token) {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:sync-collection xmlns:D=\"DAV:\">"
        + "<D:sync-token>" + escape(token == null ? "" : token) + "</D:sync-token><D:sync-level>1</D:sync-level>"
        + "<D:prop><D:getetag/></D:prop></D:sync-collection>";
  }

  static String multiget(List<String> hrefs) {
    StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?><C:calendar-multiget xmlns:D=\"DAV:\" xmlns:C=\"")
        .append(CALDAV).append("\"><D:prop><D:getetag/><C:calendar-data/></D:prop>");
    for (String href : hrefs) {
      out.append("<D:href>").append(escape(href)).append("</D:href>");
    }
    return out.append("</C:calendar-multiget>").toString();
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  static MultiStatus parse(byte[] body) {
    Element root = root(body);
    List<Response> responses = new ArrayList<>();
    String token = null;
    for (Element child : children(root)) {
      if (is(child, DAV, "sync-token")) {
        token = child.getTextContent().strip();
      } else if (is(child, DAV, "response")) {
        responses.add(response(child));
      }
    }
    return new MultiStatus(List.copyOf(responses), token);
  }

  /** The {@code multistatus} root of {@code body}, parsed without DOCTYPE or external entities. */
  static Element root(byte[] body) {
    Document document;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(null);
      document = builder.parse(new ByteArrayInputStream(body));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new IllegalArgumentException("not a WebDAV multistatus: " + e.getMessage(), e);
    }
    Element root = document.getDocumentElement();
    if (!DAV.equals(root.getNamespaceURI()) || !"multistatus".equals(root.getLocalName())) {
      throw new IllegalArgumentException("not a WebDAV multistatus: root is " + root.getNodeName());
    }
    return root;
  }

  /**
   * A PROPFIND asking for {@code properties}, each {@code D:name} (WebDAV) or {@code C:name} (CalDAV).
   */
  static String propfind(String... properties) {
    StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propfind xmlns:D=\"DAV:\" xmlns:C=\"")
        .append(CALDAV).append("\"><D:prop>");
    for (String property : properties) {
      out.append('<').append(property).append("/>");
    }
    return out.append("</D:prop></D:propfind>").toString();
  }

  /**
   * One {@code response} with the properties of its 2xx propstats as elements, for reading properties with
   * structure (resource types, hrefs, privileges).
   */
  record Properties(String href, List<Element> found) {
    /** The property {@code name} in {@code namespace}, if the server reported it. */
    Optional<Element> get(String namespace, String name) {
      return found.stream().filter(element -> is(element, namespace, name)).findFirst();
    }
  }

  /** Every response of a multistatus with its found properties. */
  static List<Properties> properties(byte[] body) {
    List<Properties> out = new ArrayList<>();
    for (Element response : children(root(body))) {
      if (!is(response, DAV, "response")) {
        continue;
      }
      String href = null;
      List<Element> found = new ArrayList<>();
      for (Element part : children(response)) {
        if (is(part, DAV, "href")) {
          href = part.getTextContent().strip();
        } else if (is(part, DAV, "propstat")) {
          Element prop = null;
          int status = 0;
          for (Element inner : children(part)) {
            if (is(inner, DAV, "status")) {
              status = statusCode(inner.getTextContent());
            } else if (is(inner, DAV, "prop")) {
              prop = inner;
            }
          }
          if (status / 100 == 2 && prop != null) {
            found.addAll(children(prop));
          }
        }
      }
      out.add(new Properties(href, List.copyOf(found)));
    }
    return out;
  }

  private static Response response(Element response) {
    String href = null;
    int status = 0;
    String etag = null;
    String data = null;
    String ctag = null;
    String token = null;
    for (Element part : children(response)) {
      if (is(part, DAV, "href")) {
        href = part.getTextContent().strip();
      } else if (is(part, DAV, "status")) {
        status = statusCode(part.getTextContent());
      } else if (is(part, DAV, "propstat")) {
        int propStatus = 0;
        Element prop = null;
        for (Element inner : children(part)) {
          if (is(inner, DAV, "status")) {
            propStatus = statusCode(inner.getTextContent());
          } else if (is(inner, DAV, "prop")) {
            prop = inner;
          }
        }
        if (propStatus / 100 != 2 || prop == null) {
          continue;
        }
        status = status == 0 ? propStatus : status;
        for (Element property : children(prop)) {
          String text = property.getTextContent();
          if (is(property, DAV, "getetag")) {
            etag = text.strip();
          } else if (is(property, CALDAV, "calendar-data")) {
            data = text;
          } else if (is(property, CS, "getctag")) {
            ctag = text.strip();
          } else if (is(property, DAV, "sync-token")) {
            token = text.strip();
          }
        }
      }
    }
    return new Response(href, status, etag, data, ctag, token);
  }

  private static int statusCode(String line) {
    String[] parts = line.strip().split(" ");
    try {
      return parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  static boolean is(Element element, String namespace, String name) {
    return namespace.equals(element.getNamespaceURI()) && name.equals(element.getLocalName());
  }

  static List<Element> children(Element parent) {
    List<Element> out = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE) {
        out.add((Element) nodes.item(i));
      }
    }
    return out;
  }
}
