package dev.roundhouse.drivers.script;

import java.util.List;

/**
 * A parsed script: what the script driver plays in answer to one message. Immutable.
 *
 * @param session the session id to report, or null for one made from the turn id
 * @param linger whether to stay open for the next message after the result; null leaves it as it was
 *     (false for a turn's first message)
 * @param steps the steps, in order
 */
record Script(String session, Boolean linger, List<Step> steps) {
  Script {
    steps = List.copyOf(steps);
  }
}
