package dev.roundhouse.hubclient;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SseReaderTest {

  @Test
  void readsEventsCommentsAndMultiLineData() throws IOException {
    List<SseReader.Item> items = readAll(
        "retry: 1000\n: hello\n\nid: 7\nevent: task.created\ndata: {\"a\":1}\n\n"
            + "data: one\ndata:two\r\n\r\n: keep-alive\n\nid: 9\nevent: cut off\ndata: x");

    assertThat(items).containsExactly(
        new SseReader.Comment("hello"),
        new SseReader.Message("7", "task.created", "{\"a\":1}"),
        new SseReader.Message(null, "message", "one\ntwo"),
        new SseReader.Comment("keep-alive"));
  }

  private static List<SseReader.Item> readAll(String text) throws IOException {
    SseReader reader = new SseReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    List<SseReader.Item> items = new ArrayList<>();
    for (Optional<SseReader.Item> item = reader.next(); item.isPresent(); item = reader.next()) {
      items.add(item.get());
    }
    return items;
  }
}
