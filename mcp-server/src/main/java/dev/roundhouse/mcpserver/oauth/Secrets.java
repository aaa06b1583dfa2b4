package dev.roundhouse.mcpserver.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * The secrets of the authorization server: minted as 256 random bits, kept only as SHA-256 digests, and the PKCE
 * S256 check. Stateless; thread-safe.
 */
final class Secrets {
  /** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
  private static final Pattern VERIFIER = Pattern.compile("[A-Za-z0-9._~-]{43,128}");
  /** A S256 challenge: 32 bytes in unpadded base64url. */
  private static final Pattern CHALLENGE = Pattern.compile("[A-Za-z0-9_-]{43}");

  private Secrets() {}

  /** {@code prefix} and 256 random bits in unpadded base64url. */
  static String mint(Random random, String prefix) {
    byte[] bits = new byte[32];
    random.nextBytes(bits);
    return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
  }

  /** The hex SHA-256 of {@code secret}: the only form a secret is kept in. */
  static String digest(String secret) {
    return HexFormat.of().formatHex(sha256(secret));
  }

  static boolean validChallenge(String challenge) {
    return challenge != null && CHALLENGE.matcher(challenge).matches();
  }

  /** True when {@code verifier} is well formed and {@code BASE64URL(SHA256(verifier))} is {@code challenge}. */
  static boolean verifierMatches(String verifier, String challenge) {
    if (verifier == null || !VERIFIER.matcher(verifier).matches()) {
      return false;
    }
    byte[] computed = Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(verifier)).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(computed, challenge.getBytes(StandardCharsets.US_ASCII));
  }

  /** Compares two secrets in constant time. */
  static boolean same(String presented, String expected) {
    return MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
