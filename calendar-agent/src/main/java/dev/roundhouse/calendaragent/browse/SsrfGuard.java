package dev.roundhouse.calendaragent.browse;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.roundhouse.hub.core.RoundhouseException;

/**
 * The one check every outbound fetch of the calendar agent passes: http or https only, no credentials in the
 * URL, and every address the host names or resolves to globally reachable (the IANA IPv4 and IPv6
 * special-purpose registries, RFC 6890 and successors), including addresses hidden in IPv4-mapped, NAT64
 * and 6to4 forms and in the numeric host spellings browsers accept (decimal, octal, hex, short forms). The
 * addresses it returns are the ones to dial. Stateless apart from the injected resolver; thread-safe.
 */
public final class SsrfGuard {
  private static final Pattern AUTHORITY = Pattern.compile("([A-Za-z0-9._-]+)(?::([0-9]{1,5}))?");
  private final NameResolver resolver;

  public SsrfGuard(NameResolver resolver) {
    this.resolver = resolver;
  }

  /** A URL that passed: where to connect (the vetted addresses, in order) and what to ask for. */
  public record Target(URI url, boolean https, String host, int port, String pathAndQuery, List<InetAddress> addresses) {}

  /** Vets {@code url}; throws {@link Refused} with the reason when it must not be fetched. */
  public Target vet(String url) {
    URI uri;
    try {
      uri = new URI(url.strip());
    } catch (URISyntaxException e) {
      throw new Refused("'" + url + "' is not a URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new Refused("only http and https URLs are fetched, not '" + (scheme.isEmpty() ? url : scheme + ":") + "'");
    }
    String authority = uri.getRawAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new Refused("'" + url + "' names no host");
    }
    if (authority.contains("@")) {
      throw new Refused("URLs with credentials (user@ or user:password@) are refused: " + uri.getHost());
    }
    String host = uri.getHost();
    int port = uri.getPort();
    if (host == null) {
      // URI takes short numeric forms such as 127.1 for registry names; browsers take them for addresses
      Matcher parts = AUTHORITY.matcher(authority);
      if (!parts.matches()) {
        throw new Refused("'" + url + "' has no host a URL parser agrees on (" + authority + ")");
      }
      host = parts.group(1);
      port = parts.group(2) == null ? -1 : Integer.parseInt(parts.group(2));
    }
    host = host.toLowerCase(Locale.ROOT);
    if (host.endsWith(".")) {
      host = host.substring(0, host.length() - 1);
    }
    port = port != -1 ? port : scheme.equals("https") ? 443 : 80;
    List<InetAddress> addresses;
    boolean literal = host.startsWith("[") || numericIpv4(host).isPresent();
    if (host.startsWith("[")) {
      addresses = List.of(literal(host.substring(1, host.length() - 1)));
    } else if (numericIpv4(host).isPresent()) {
      addresses = List.of(numericIpv4(host).get());
    } else {
      if (host.equals("localhost") || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")
          || !host.contains(".")) {
        throw new Refused("host '" + host + "' is a local name, not a public one");
      }
      try {
        addresses = List.copyOf(resolver.resolve(host));
      } catch (UnknownHostException e) {
        throw new Refused("host '" + host + "' does not resolve");
      }
      if (addresses.isEmpty()) {
        throw new Refused("host '" + host + "' does not resolve");
      }
    }
    for (InetAddress address : addresses) {
      Optional<String> why = notGlobal(address);
      if (host.startsWith("[") && address instanceof Inet4Address) { // Java reads ::ffff:a.b.c.d as a.b.c.d
        why = why.map(reason -> "an IPv4-mapped address (::ffff:0:0/96) of " + address.getHostAddress() + ", which is " + reason);
      }
      if (why.isPresent()) {
        boolean mapped = host.startsWith("[") && address instanceof Inet4Address;
        throw new Refused("host '" + host + "' " + (mapped ? "is " + why.get()
            : (literal ? "is " : "resolves to ") + address.getHostAddress() + ", " + why.get()));
      }
    }
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
    return new Target(uri, scheme.equals("https"), host, port, path + query, addresses);
  }

  private static InetAddress literal(String text) {
    try {
      return InetAddress.getByName(text.contains(":") ? text : "[" + text + "]"); // an IPv6 literal: no lookup
    } catch (UnknownHostException e) {
      throw new Refused("'" + text + "' is not an IPv6 address");
    }
  }

  /**
   * A host spelled as an IPv4 number the way WHATWG URL parsers (browsers, curl) read it: one to four parts,
   * each decimal, octal (leading 0) or hex (0x); the last part fills the remaining bytes. Empty when it is a name.
   */
  static Optional<InetAddress> numericIpv4(String host) {
    String[] parts = host.split("\\.", -1);
    if (parts.length > 4 || parts.length == 0) {
      return Optional.empty();
    }
    List<BigInteger> numbers = new ArrayList<>();
    for (String part : parts) {
      if (part.isEmpty()) {
        return Optional.empty();
      }
      try {
        if (part.startsWith("0x") || part.startsWith("0X")) {
          numbers.add(part.length() == 2 ? BigInteger.ZERO : new BigInteger(part.substring(2), 16));
        } else if (part.length() > 1 && part.startsWith("0")) {
          numbers.add(new BigInteger(part.substring(1), 8));
        } else {
          numbers.add(new BigInteger(part, 10));
        }
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    long value = 0;
    for (int i = 0; i < numbers.size() - 1; i++) {
      if (numbers.get(i).compareTo(BigInteger.valueOf(255)) > 0) {
        throw new Refused("'" + host + "' is not a valid IPv4 address");
      }
      value |= numbers.get(i).longValue() << (8 * (3 - i));
    }
    BigInteger last = numbers.getLast();
    if (last.bitLength() > 8 * (5 - numbers.size())) {
      throw new Refused("'" + host + "' is not a valid IPv4 address");
    }
    value |= last.longValue();
    byte[] bytes = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    try {
      return Optional.of(InetAddress.getByAddress(host, bytes));
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Why {@code address} is not globally reachable, or empty when it is. */
  public static Optional<String> notGlobal(InetAddress address) {
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      return ipv4(b);
    }
    if (address instanceof Inet6Address) {
      return ipv6(b);
    }
    return Optional.of("an unknown kind of address");
  }

  private static Optional<String> ipv4(byte[] b) {
    int a0 = b[0] & 0xff;
    int a1 = b[1] & 0xff;
    int a2 = b[2] & 0xff;
    if (a0 == 0) {
      return Optional.of("in 0.0.0.0/8 (\"this network\")");
    }
    if (a0 == 10) {
      return Optional.of("a private address (10.0.0.0/8)");
    }
    if (a0 == 100 && (a1 & 0xc0) == 64) {
      return Optional.of("in shared address space (100.64.0.0/10, carrier-grade NAT)");
    }
    if (a0 == 127) {
      return Optional.of("a loopback address (127.0.0.0/8)");
    }
    if (a0 == 169 && a1 == 254) {
      return Optional.of("a link-local address (169.254.0.0/16, cloud metadata lives here)");
    }
    if (a0 == 172 && (a1 & 0xf0) == 16) {
      return Optional.of("a private address (172.16.0.0/12)");
    }
    if (a0 == 192 && a1 == 0 && a2 == 0) {
      return Optional.of("in the IETF protocol assignments (192.0.0.0/24)");
    }
    if (a0 == 192 && a1 == 0 && a2 == 2 || a0 == 198 && a1 == 51 && a2 == 100 || a0 == 203 && a1 == 0 && a2 == 113) {
      return Optional.of("a documentation address (TEST-NET)");
    }
    if (a0 == 192 && a1 == 88 && a2 == 99) {
      return Optional.of("in the deprecated 6to4 relay anycast range (192.88.99.0/24)");
    }
    if (a0 == 192 && a1 == 168) {
      return Optional.of("a private address (192.168.0.0/16)");
    }
    if (a0 == 198 && (a1 & 0xfe) == 18) {
      return Optional.of("in the benchmarking range (198.18.0.0/15)");
    }
    if (a0 >= 224 && a0 < 240) {
      return Optional.of("a multicast address (224.0.0.0/4)");
    }
    if (a0 >= 240) {
      return Optional.of(a0 == 255 && a1 == 255 && a2 == 255 && (b[3] & 0xff) == 255
          ? "the limited broadcast address" : "in the reserved range (240.0.0.0/4)");
    }
    return Optional.empty();
  }

  private static Optional<String> ipv6(byte[] b) {
    boolean zeroPrefix80 = true;
    for (int i = 0; i < 10; i++) {
      zeroPrefix80 &= b[i] == 0;
    }
    if (zeroPrefix80 && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
      return embedded(b, 12, "an IPv4-mapped address (::ffff:0:0/96)");
    }
    boolean zeroPrefix96 = zeroPrefix80 && b[10] == 0 && b[11] == 0;
    if (zeroPrefix96) {
      boolean rest = b[12] == 0 && b[13] == 0 && b[14] == 0;
      if (rest && b[15] == 0) {
        return Optional.of("the unspecified address (::)");
      }
      if (rest && b[15] == 1) {
        return Optional.of("the loopback address (::1)");
      }
      return Optional.of("a deprecated IPv4-compatible address (::/96)");
    }
    int w0 = ((b[0] & 0xff) << 8) | (b[1] & 0xff);
    int w1 = ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    if (w0 == 0x64 && w1 == 0xff9b) {
      boolean wellKnown = true;
      for (int i = 4; i < 12; i++) {
        wellKnown &= b[i] == 0;
      }
      return wellKnown ? embedded(b, 12, "a NAT64 address (64:ff9b::/96)")
          : Optional.of("a local-use NAT64 address (64:ff9b:1::/48)");
    }
    if (w0 == 0x2002) {
      return embedded(b, 2, "a 6to4 address (2002::/16)");
    }
    if ((w0 & 0xe000) != 0x2000) {
      if ((w0 & 0xfe00) == 0xfc00) {
        return Optional.of("a unique local address (fc00::/7)");
      }
      if ((w0 & 0xffc0) == 0xfe80) {
        return Optional.of("a link-local address (fe80::/10)");
      }
      if ((w0 & 0xff00) == 0xff00) {
        return Optional.of("a multicast address (ff00::/8)");
      }
      return Optional.of("outside global unicast (2000::/3)");
    }
    if (w0 == 0x2001 && w1 < 0x200) {
      return Optional.of("in the IETF protocol assignments (2001::/23, Teredo and ORCHID included)");
    }
    if (w0 == 0x2001 && w1 == 0x0db8) {
      return Optional.of("a documentation address (2001:db8::/32)");
    }
    if (w0 == 0x3fff && (w1 & 0xf000) == 0) {
      return Optional.of("a documentation address (3fff::/20)");
    }
    return Optional.empty();
  }

  /** The verdict on the IPv4 address embedded at {@code offset}: such forms reach that address. */
  private static Optional<String> embedded(byte[] b, int offset, String form) {
    byte[] v4 = {b[offset], b[offset + 1], b[offset + 2], b[offset + 3]};
    return ipv4(v4).map(why -> form + " of " + (v4[0] & 0xff) + "." + (v4[1] & 0xff) + "." + (v4[2] & 0xff) + "." + (v4[3] & 0xff)
        + ", which is " + why);
  }

  /** A fetch the guard refused; the message says why. */
  public static final class Refused extends RoundhouseException.Forbidden {
    private static final long serialVersionUID = 1L;

    public Refused(String message) {
      super("browse_refused", message);
    }
  }
}
