/**
 * One message: sender (for the first of a run), time, the sanitised HTML (or its edit box),
 * marks, reactions (buttons: click to add or take back yours), and its action buttons
 * (MessageActions.tsx). A right click opens the actions menu; an inline image opens in the
 * lightbox; the message a link points at (`/near/ID`) is highlighted.
 */
import { cancelUnsent, retryUnsent } from '../compose/unsent.js';
import { memo } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import { highlightAlertWords } from '../settings/alert-words.js';
import { applyEdit, COUNTER_FROM, formatEdit, formatOfKey, isTooLong, lengthOf, tooLong, useAutoGrow } from '../compose/compose-box.js';
import { CondensedContent } from './condense.js';
import { labelOf } from './emoji-data.js';
import { EmojiGlyph } from './EmojiPicker.js';
import { meMessage, sanitize } from './html.js';
import { toggleSpoiler } from './spoiler.js';
import { imageLinkOf } from './Lightbox.js';
import { MessageTools, openMenuOf } from './MessageActions.js';
import { openProfileCard } from '../people/ProfileCard.js';
import * as act from './message-actions.js';
import { view } from '../store/router.js';
import { store, userName, type Message } from '../store/state.js';
import { fullTimeOf, isoOf, timeOf } from '../ui/time.js';
import { Widget, widgetStateOf } from '../widgets/Widget.js';
import { CallLinkState } from '../calls/CallLinkState.js';

const listOf = (names: string[]) => (names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

const focusCompose = () => document.querySelector<HTMLTextAreaElement>('#main form.compose textarea')?.focus();

/** A message whose send got no answer: says so, with Retry and Cancel (unsent.ts). */
function Unsent({ m }: { m: Message }) {
  const localId = String(m.id);
  return (
    <span class="unsent" role="alert">
      Not sent: Hearth did not answer.
      {/* The buttons go with the outcome: the keyboard goes on in the compose box. */}
      <button type="button" class="small" onClick={() => (focusCompose(), void retryUnsent(localId))}>
        Retry
      </button>
      <button type="button" class="small" onClick={() => (focusCompose(), cancelUnsent(localId))}>
        Cancel
      </button>
    </span>
  );
}

/** A message's reactions; `add` false leaves out "+" (its picker lives in the message's own tools). */
export function Reactions({ m, add = true }: { m: Message; add?: boolean }) {
  if (!m.reactions.length) return null;
  const self = store.selfId.value;
  const groups = new Map<string, { name: string; code: string; type: string; users: number[] }>();
  for (const r of m.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key) ?? { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, users: [] };
    if (!g.users.includes(r.user_id)) g.users.push(r.user_id);
    groups.set(key, g);
  }
  return (
    <div class="reactions" role="group" aria-label="Reactions">
      {[...groups.values()].map((g) => {
        const mine = g.users.includes(self);
        const who = listOf([...(mine ? ['You'] : []), ...g.users.filter((id) => id !== self).map(userName)]);
        return (
          <button
            key={`${g.type}:${g.code}`}
            type="button"
            class={`reaction${mine ? ' mine' : ''}`}
            aria-pressed={mine}
            aria-label={`${labelOf(g.name)}, ${g.users.length}: ${who}`}
            title={`${who} reacted with :${g.name}:${mine ? ' (click to take yours back)' : ''}`}
            disabled={m.pending}
            onClick={() => void act.toggleReaction(m, g)}
          >
            <EmojiGlyph e={g} size={18} />
            <span class="n">{g.users.length}</span>
          </button>
        );
      })}
      {!m.pending && add && (
        <button
          type="button"
          class="reaction add"
          aria-label="Add emoji reaction"
          title="Add emoji reaction"
          onClick={(e) => act.open({ kind: 'picker', id: m.id, anchor: e.currentTarget as HTMLElement })}
        >
          +
        </button>
      )}
    </div>
  );
}

const focusActions = (id: number) => document.querySelector<HTMLElement>(`li.message[data-id="${id}"] .actions-button`)?.focus();

const editRoom = (el: HTMLTextAreaElement) => (el.closest('.scroller')?.clientHeight ?? window.innerHeight) - 130;

function EditBox({ m }: { m: Message }) {
  const [text, setText] = useState<string | null>(null);
  const [original, setOriginal] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    act.rawContent(m.id).then(
      (t) => {
        setOriginal(t);
        setText(t);
      },
      (err: Error) => setError(err.message),
    );
  }, [m.id]);
  // Focused at once (read-only while the raw text loads), so Esc cancels even before it arrives.
  useEffect(() => {
    area.current?.focus();
  }, [text === null]);
  const done = () => {
    act.editing.value = null;
    setTimeout(() => focusActions(m.id));
  };
  // Within the message list, room is left under the box for its counter, a refusal and Save.
  useAutoGrow(area, text ?? '', true, editRoom);
  // A refusal under a tall box may be below the list's edge: the box, the refusal and Save brought into view.
  useEffect(() => {
    if (error) area.current?.closest('form')?.scrollIntoView({ block: 'nearest' });
  }, [error]);
  const left = store.maxMessageLength.value - lengthOf(text ?? '');
  const save = async () => {
    if (text === null || text.trim() === original.trim()) return done();
    if (isTooLong(text)) return setError(tooLong());
    setBusy(true);
    try {
      await act.saveEdit(m.id, text);
      done();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  const enterSends = store.userSettings.value.enter_sends !== false;
  return (
    <form class="edit-box" onSubmit={(e) => (e.preventDefault(), void save())}>
      <textarea
        ref={area}
        aria-label="Edit message"
        rows={3}
        value={text ?? 'Loading…'}
        readOnly={text === null || busy}
        aria-busy={text === null || busy}
        aria-invalid={left < 0 || undefined}
        aria-describedby={left <= COUNTER_FROM ? `edit-length-${m.id}` : undefined}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          const format = formatOfKey(e);
          if (format && text !== null && !busy) {
            e.preventDefault();
            const a = e.currentTarget;
            applyEdit(a, formatEdit(a.value, a.selectionStart, a.selectionEnd, format));
          } else if (e.key === 'Escape') {
            e.preventDefault();
            done();
          } else if (e.key === 'Enter' && !e.isComposing && (e.ctrlKey || e.metaKey || (enterSends && !e.shiftKey))) {
            e.preventDefault();
            void save();
          }
        }}
      />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="edit-actions">
        {left <= COUNTER_FROM && (
          <span id={`edit-length-${m.id}`} class={`length-counter${left < 0 ? ' over' : ''}`}>
            {left < 0 ? `${(-left).toLocaleString()} characters over the limit` : `${left.toLocaleString()} characters left`}
          </span>
        )}
        <span class="hint">{enterSends ? 'Enter saves' : 'Ctrl+Enter saves'}, Esc cancels.</span>
        <span class="edit-buttons">
          <button type="button" onClick={done}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={text === null || busy}>
            Save
          </button>
        </span>
      </div>
    </form>
  );
}

function Body({ m }: { m: Message }) {
  if (act.editing.value === m.id) return <EditBox m={m} />;
  // A poll or to-do list shows its widget in place of the `/poll …` text (as in Zulip's web app).
  const widget = widgetStateOf(m);
  if (widget) return <Widget m={m} state={widget} />;
  const words = store.alertWords.value;
  const clean = meMessage(sanitize(m.content), m.sender_full_name || userName(m.sender_id));
  const html = m.flags.includes('has_alert_word') && words.length ? highlightAlertWords(clean, words) : clean;
  return (
    <CondensedContent
      id={m.id}
      html={html}
      onClick={(e) => {
        // A spoiler opens and closes by its header (Zulip's spoiler-block).
        if (toggleSpoiler(e.target)) return;
        const a = imageLinkOf(e.target);
        if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        act.openLightbox(m.id, a);
      }}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && toggleSpoiler(e.target)) e.preventDefault();
      }}
    />
  );
}

/** "(edited)": a button that opens the edit history where the organization shows it (Zulip's EDITED label). */
function EditedMark({ m }: { m: Message }) {
  if (!act.canViewHistory(m)) return <span>(edited)</span>;
  return (
    <button type="button" class="link edited-mark" title="View edit history" onClick={(e) => act.open({ kind: 'history', id: m.id, anchor: e.currentTarget })}>
      (edited)
    </button>
  );
}

/** A muted sender's message, as Zulip shows it: hidden until revealed (for this page only). */
function MutedBody({ onReveal }: { onReveal: () => void }) {
  return (
    <p class="content muted-message">
      This message was hidden because you have muted the sender.{' '}
      <button type="button" class="link" onClick={onReveal}>
        Show message
      </button>
    </p>
  );
}

const interactive = 'a, button, input, textarea, select, img, .popover, dialog';

export const MessageItem = memo(function MessageItem({ m, first, unread }: { m: Message; first: boolean; unread: boolean }) {
  const [revealed, setRevealed] = useState(false);
  const hidden = !revealed && m.sender_id !== store.selfId.value && store.mutedUsers.value.has(m.sender_id);
  const name = hidden ? 'Muted user' : m.sender_full_name || userName(m.sender_id);
  const v = view.peek();
  // The message a link points at (FeedPane's selection scrolls it to the middle).
  const target = 'near' in v && v.near === m.id;
  return (
    <li
      class={`message${first ? ' first' : ''}${unread ? ' unread' : ''}${m.pending ? ' pending' : ''}${m.failed ? ' failed' : ''}${target ? ' target' : ''}`}
      data-id={m.id}
      aria-label={first ? undefined : `${name}, ${timeOf(m.timestamp)}`}
      onContextMenu={(e) => {
        if (m.pending || (e.target as Element).closest(interactive) || getSelection()?.toString()) return;
        e.preventDefault();
        openMenuOf(e.currentTarget, m);
      }}
    >
      {first ? (
        <div class="sender">
          <button type="button" class="sender-button" aria-haspopup="dialog" onClick={(e) => openProfileCard(m.sender_id, e.currentTarget)}>
            {hidden ? (
              <span class="avatar muted-avatar" aria-hidden="true" />
            ) : (
              <img class="avatar" src={m.avatar_url ?? `/avatar/${m.sender_id}`} alt="" width={32} height={32} loading="lazy" />
            )}
            <span class="name">{name}</span>
          </button>
          <time dateTime={isoOf(m.timestamp)} title={fullTimeOf(m.timestamp)}>
            {timeOf(m.timestamp)}
          </time>
        </div>
      ) : (
        <time class="side-time" dateTime={isoOf(m.timestamp)} title={fullTimeOf(m.timestamp)}>
          {timeOf(m.timestamp)}
        </time>
      )}
      {hidden ? <MutedBody onReveal={() => setRevealed(true)} /> : <Body m={m} />}
      {!hidden && <CallLinkState html={m.content} />}
      {!hidden && (m.last_edit_timestamp || m.flags.includes('starred') || m.pending) && (
        <p class="marks">
          {m.pending && !m.failed && <span>Sending…</span>}
          {m.failed && <Unsent m={m} />}
          {m.last_edit_timestamp ? <EditedMark m={m} /> : null}
          {m.flags.includes('starred') && <span>★ starred</span>}
        </p>
      )}
      {!hidden && <Reactions m={m} />}
      {!hidden && <MessageTools m={m} />}
    </li>
  );
});
