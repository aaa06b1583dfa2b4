package dev.roundhouse.calendaragent.browse;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * HTML to the text a reader sees: scripts, styles, SVG, templates, frames, comments and hidden elements
 * ({@code hidden}, {@code aria-hidden="true"}, inline {@code display:none} or {@code visibility:hidden}) are
 * dropped before the text is taken (jsoup's own {@code text()} keeps hidden text, a prompt-injection route);
 * block elements become line breaks. Stateless.
 */
final class HtmlText {
  private static final Set<String> DROPPED = Set.of("script", "style", "svg", "math", "template", "noscript", "iframe",
      "object", "embed", "canvas", "head", "select", "button", "input", "textarea");
  private static final Set<String> BLOCKS = Set.of("p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article",
      "header", "footer", "main", "nav", "aside", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "dt", "dd", "dl",
      "hr", "address", "figure", "figcaption", "tbody", "thead", "caption", "form", "fieldset", "details", "summary");
  private static final Pattern HIDDEN_STYLE = Pattern.compile("(display\\s*:\\s*none|visibility\\s*:\\s*hidden|content-visibility\\s*:\\s*hidden)");

  private HtmlText() {}

  record Page(String title, String text) {}

  static Page of(String html, String baseUri) {
    Document document = Jsoup.parse(html, baseUri);
    String title = document.title();
    Element body = document.body();
    for (Element element : body.getAllElements()) {
      if (element != body && element.parent() != null && hidden(element)) {
        element.remove();
      }
    }
    StringBuilder out = new StringBuilder();
    NodeTraversor.traverse(new NodeVisitor() {
      @Override
      public void head(Node node, int depth) {
        if (node instanceof TextNode text) {
          String words = text.text().replaceAll("\\s+", " ");
          if (!words.isBlank()) {
            if (out.length() > 0 && !Character.isWhitespace(out.charAt(out.length() - 1)) && Character.isWhitespace(text.getWholeText().charAt(0))) {
              out.append(' ');
            }
            out.append(words.strip());
            if (Character.isWhitespace(text.getWholeText().charAt(text.getWholeText().length() - 1))) {
              out.append(' ');
            }
          }
        } else if (node instanceof Element element && (BLOCKS.contains(element.normalName()) || element.normalName().equals("td"))) {
          breakLine(out, element.normalName().equals("td") ? " | " : "\n");
        }
      }

      @Override
      public void tail(Node node, int depth) {
        if (node instanceof Element element && BLOCKS.contains(element.normalName())) {
          breakLine(out, "\n");
        }
      }
    }, body);
    String text = out.toString().replaceAll("[ \\t]+\\n", "\n").replaceAll("\\n{3,}", "\n\n").strip();
    return new Page(title, text);
  }

  private static void breakLine(StringBuilder out, String separator) {
    if (out.length() == 0) {
      return;
    }
    if (separator.equals("\n")) {
      if (out.charAt(out.length() - 1) != '\n') {
        out.append('\n');
      }
    } else if (out.charAt(out.length() - 1) != '\n') {
      out.append(separator);
    }
  }

  private static boolean hidden(Element element) {
    if (DROPPED.contains(element.normalName())) {
      return true;
    }
    if (element.hasAttr("hidden") || "true".equalsIgnoreCase(element.attr("aria-hidden").strip())) {
      return true;
    }
    if (element.normalName().equals("input") && "hidden".equalsIgnoreCase(element.attr("type"))) {
      return true;
    }
    String style = element.attr("style").toLowerCase(Locale.ROOT);
    return !style.isEmpty() && HIDDEN_STYLE.matcher(style).find();
  }
}
