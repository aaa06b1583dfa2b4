package dev.roundhouse.app;

/** Placeholder entry point; replaced by the picocli command tree. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.out.println("roundhouse");
  }
}
