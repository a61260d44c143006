/**
 * Telling the sender where a message went when the open view does not show it (Zulip's "sent
 * to a conversation you are not viewing" notice), with a link there.
 */
import { href } from '../store/router.js';
import { channelName, store, topicLabel, userName } from '../store/state.js';
import type { TypingTarget } from './typing.js';

/** A line under the box after sending somewhere this view does not show, or scheduling. */
export interface Notice {
  text: string;
  link: { href: string; label: string };
  scheduledId?: number;
  content?: string;
}

/** "Sent to #channel > topic." or "Sent to Mel, Sam.", with a link to that conversation. */
export function sentElsewhere(t: TypingTarget): Notice {
  const link = { label: 'Go to conversation', href: '' };
  if (t.kind === 'channel') {
    link.href = href({ kind: 'topic', streamId: t.streamId, topic: t.topic });
    return { text: `Sent to #${channelName(t.streamId)} > ${topicLabel(t.topic)}.`, link };
  }
  const others = t.to.filter((id) => id !== store.selfId.value).sort((a, b) => a - b);
  link.href = href({ kind: 'dm', userIds: others });
  return { text: `Sent to ${others.length ? others.map(userName).join(', ') : 'yourself'}.`, link };
}

/** The notice line (a live region: screen readers hear it), with Undo for a scheduled message. */
export function ComposeNotice({ notice, onUndo }: { notice: Notice | null; onUndo: (n: Notice) => void }) {
  return (
    <p class="compose-notice" role="status">
      {notice && (
        <>
          {notice.text}{' '}
          {notice.scheduledId !== undefined && (
            <button type="button" class="link" onClick={() => onUndo(notice)}>
              Undo
            </button>
          )}{' '}
          <a href={notice.link.href}>{notice.link.label}</a>
        </>
      )}
    </p>
  );
}
