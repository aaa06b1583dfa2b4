package dev.roundhouse.lspbridge.acp;

import dev.roundhouse.hubclient.HubAddress;
/**
 * {@code roundhouse acp} as a process of its own for tests: {@code java -cp <test classpath>
 * dev.roundhouse.lspbridge.AcpAgentProcess <hub url> <token>}. Stdout carries only the protocol.
 */
public final class AcpAgentProcess {
  private AcpAgentProcess() {}

  public static void main(String[] args) {
    HubAddress address = new HubAddress(args[0], args[1]);
    java.io.PrintStream protocol = System.out;
    System.setOut(System.err); // a stray print must not corrupt the protocol stream
    System.exit(AcpAgent.serve(System.in, protocol, () -> address));
  }
}
