/**
 * GET /messages/{id}/history (Zulip's fill_edit_history_entries): the
 * message's states oldest first, rebuilt backwards from its current state
 * through `edits` (oldest first in the record).
 */
import { renderedOf, type MessageRecord } from '../../store/message-records.js';
import { displayTopic } from './format.js';

export function messageHistory(m: MessageRecord, allowEmpty: boolean): Record<string, unknown>[] {
  let content = m.content;
  let rendered = renderedOf(m);
  let topic = m.topic;
  let stream = m.stream_id;
  const out: Record<string, unknown>[] = [];
  for (const e of [...(m.edits ?? [])].reverse()) {
    const entry: Record<string, unknown> = {
      topic: displayTopic(topic, allowEmpty),
      content,
      rendered_content: rendered,
      timestamp: e.timestamp,
      user_id: e.user_id,
    };
    if (e.prev_topic !== undefined) {
      entry.prev_topic = displayTopic(e.prev_topic, allowEmpty);
      topic = e.prev_topic;
    }
    if (e.prev_content !== undefined) {
      entry.prev_content = e.prev_content;
      entry.prev_rendered_content = e.prev_rendered_content ?? '';
      entry.content_html_diff = rendered;
      content = e.prev_content;
      rendered = e.prev_rendered_content ?? '';
    }
    if (e.prev_stream !== undefined) {
      entry.stream = stream;
      entry.prev_stream = e.prev_stream;
      stream = e.prev_stream;
    }
    out.push(entry);
  }
  out.push({
    topic: displayTopic(topic, allowEmpty),
    content,
    rendered_content: rendered,
    timestamp: m.timestamp,
    user_id: m.sender_id,
  });
  return out.reverse();
}
