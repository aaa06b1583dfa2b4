package dev.roundhouse.mcpserver.oauth;

/**
 * The sign-in page the authorization endpoint serves: one self-contained HTML document (no external asset) that
 * names the client and where it returns to, says which decision to answer, and offers the hub token as the
 * browser's own proof. Its script long-polls {@code /oauth/authorize/wait} and follows the outcome; without
 * script, its "Continue" button does the same. Every form carries the sign-in's id and nonce. Stateless.
 */
final class AuthorizePage {
  private AuthorizePage() {}

  /** The Content-Security-Policy that goes with a page whose script nonce is {@code scriptNonce}. */
  static String policy(String scriptNonce) {
    return "default-src 'none'; script-src 'nonce-" + scriptNonce + "'; style-src 'unsafe-inline'; connect-src 'self';"
        + " frame-ancestors 'none'; base-uri 'none'";
  }

  static String render(Consents.SignIn signIn, String notice, String scriptNonce) {
    String client = escape(signIn.request.client().clientName());
    String host = escape(Clients.hostOf(signIn.request.redirectUri()));
    String hidden = "<input type=\"hidden\" name=\"request\" value=\"" + escape(signIn.id) + "\">"
        + "<input type=\"hidden\" name=\"nonce\" value=\"" + escape(signIn.nonce) + "\">";
    return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <meta name="referrer" content="no-referrer"><title>Sign in to Roundhouse</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}
        .notice{background:#fff3cd;padding:.5em 1em}code{background:#eee;padding:0 .2em}button{margin:.3em .3em 0 0}</style>
        </head><body>
        <h1>Allow %s to use Roundhouse as you?</h1>
        <p><strong>%s</strong> wants to use this hub's tools (the task board, turns, decisions) on your behalf.
        After your answer, this browser returns to <code>%s</code>.</p>
        %s
        <p id="status">Waiting for your answer: approve or deny decision <strong>#%d</strong> in any Roundhouse face
        (VS Code, IntelliJ, Zed, <code>roundhouse decisions</code>). This page continues by itself.</p>
        <form method="post" action="/oauth/authorize">%s
        <p><label>Or type the hub token (the file <code>token</code> in the hub's home) to allow it here:<br>
        <input type="password" name="token" autocomplete="off" size="50"></label></p>
        <button name="action" value="allow">Allow with the hub token</button>
        <button name="action" value="deny">Deny</button>
        <button name="action" value="continue">Continue</button>
        </form>
        <script nonce="%s">
        (async () => {
          const form = new URLSearchParams({request: %s, nonce: %s});
          for (;;) {
            let answer;
            try {
              const response = await fetch('/oauth/authorize/wait', {method: 'POST', body: form});
              answer = await response.json();
            } catch (e) {
              await new Promise(r => setTimeout(r, 2000));
              continue;
            }
            if (answer.location) { location.replace(answer.location); return; }
            if (answer.error) { document.getElementById('status').textContent = answer.error_description; return; }
          }
        })();
        </script>
        </body></html>
        """.formatted(client, client, host, notice == null ? "" : "<p class=\"notice\">" + escape(notice) + "</p>",
        signIn.decision, hidden, escape(scriptNonce), jsString(signIn.id), jsString(signIn.nonce));
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A JavaScript string literal of {@code text}, which is base64url (the sign-in's id and nonce). */
  private static String jsString(String text) {
    return "'" + text.replaceAll("[^A-Za-z0-9_-]", "") + "'";
  }
}
