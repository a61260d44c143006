/**
 * The compose box under a feed: to the open topic or conversation (a channel and a topic,
 * or people, when the feed is not one conversation). Enter sends (or Ctrl+Enter, as the person
 * chose), Shift+Enter is a new line; the box grows with its text (compose-box.ts); a counter near the
 * server's length limit, and text over it refused, never cut; Zulip's formatting keys; a preview (Alt+P);
 * typing notifications; files by button, paste, or dropped anywhere on the chat (file-drop.ts), those
 * over the organization's size limit refused before any byte is sent; upload progress. A sent message
 * shows at once (local echo) and is replaced by the server's copy.
 * Also: autocomplete for `@` `#` `:` (Autocomplete.tsx), drafts saved to the server while
 * typing and restored when the conversation is reopened (drafts.ts), "Schedule" (send
 * later, ScheduleDialog.tsx), a video call link, and text other parts of the app insert
 * (quote and reply, compose-bus.ts).
 */
import { markUnsent, sendWithTimeout, unanswered, type SendParams } from './unsent.js';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, del, NETWORK_ERROR, post, upload } from './api.js';
import { mutedForFeed } from './apply-event.js';
import type { ComposeContext } from './autocomplete.js';
import { useAutocomplete } from './SuggestionList.js';
import { composeElsewhere, composeInsert } from './compose-bus.js';
import { ComposeTo, type Address } from './ComposeTo.js';
import { addressOfView, draftFor, DraftSaver, restoreRequest, type DraftAddress } from './draft-sync.js';
import { sanitize } from './html.js';
import { keyOf, matches, type FeedView } from './narrow.js';
import { href } from './router.js';
import { ScheduleDialog, whenFmt } from './ScheduleDialog.js';
import { channelName, store, topicLabel, updateFeed, userName, type Message } from './state.js';
import { startTyping, stopTyping, type TypingTarget } from './typing.js';
import { ComposeNotice, sentElsewhere, type Notice } from './ComposeNotice.js';
import { applyEdit, COUNTER_FROM, formatEdit, formatOfKey, isTooLong, lengthOf, tooLong, useAutoGrow } from './compose-box.js';
import { acceptDrops, dragging } from './file-drop.js';
import { PollDialog, TodoDialog } from './WidgetDialogs.js';

type Upload = { name: string; progress: number };

/** The newest `composeInsert` taken, so a remounted box does not insert it again. */
let consumedInsert = 0;
/** Likewise the newest `composeElsewhere` request. */
let consumedElsewhere = 0;

/** Zulip's words: a message sent before its files are in would go without their links. */
const UPLOADING = 'Cannot send message while files are being uploaded.';
const MiB = 1024 * 1024;
const mib = (bytes: number) => (bytes / MiB).toLocaleString(undefined, { maximumFractionDigits: 1 });

const escapeHtml = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** Where a message goes, as the drop overlay names it. */
function placeOf(t: TypingTarget): string {
  if (t.kind === 'channel') return `#${channelName(t.streamId)} > ${topicLabel(t.topic)}`;
  const others = t.to.filter((id) => id !== store.selfId.value);
  return others.length ? others.map(userName).join(', ') : 'yourself';
}

export function Compose({ v }: { v: FeedView }) {
  const viewTopic = v.kind === 'topic' ? v.topic : null;
  const viewChannel = v.kind === 'channel' || v.kind === 'topic' ? v.streamId : null;
  const viewPeople = v.kind === 'dm' ? v.userIds : null;
  // Writing somewhere else than the conversation shown (X: a new direct message), until sent or cancelled.
  const [elsewhere, setElsewhere] = useState(false);
  const fixedTopic = elsewhere ? null : viewTopic;
  const fixedChannel = elsewhere ? null : viewChannel;
  const fixedPeople = elsewhere ? null : viewPeople;
  const [mode, setMode] = useState<'channel' | 'dm'>(fixedPeople ? 'dm' : 'channel');
  // Outside a channel's views no channel is picked until the person picks one (as in Zulip).
  const [channel, setChannel] = useState<number>(fixedChannel ?? 0);
  const [topic, setTopic] = useState(fixedTopic ?? '');
  const [people, setPeople] = useState<number[]>(fixedPeople ?? []);
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [scheduling, setScheduling] = useState(false);
  // "Add a poll" / "Add a to-do list": the dialog open, and the button to return to when it closes.
  const [widgetDialog, setWidgetDialog] = useState<'poll' | 'todo' | null>(null);
  const widgetButton = useRef<HTMLButtonElement | null>(null);
  const [focused, setFocused] = useState(false);
  const [opened, setOpened] = useState(false); // used since the conversation opened (phones: style.css)
  const [saver] = useState(() => new DraftSaver());
  const box = useRef<HTMLTextAreaElement>(null);
  const previewBox = useRef<HTMLDivElement>(null);
  const textRef = useRef(text);
  const caretWanted = useRef<number | null>(null);
  const caretKept = useRef<number | null>(null);
  textRef.current = text;
  const key = keyOf(v);
  // Measured again when first used: on a phone the unused box is one line (style.css), then two rows.
  useAutoGrow(box, text, preview === null && (opened ? 'opened' : 'unused'));

  // A new conversation: the old text is kept as a draft, this one's newest draft (or the one
  // the Drafts view asked for) comes back. Before the paint, so nothing typed into the new box is wiped.
  function openConversation() {
    const asked = restoreRequest.peek();
    if (asked) restoreRequest.value = null;
    const address = addressOfView(v);
    const draft = asked ?? (address ? draftFor(address) : undefined);
    setElsewhere(false);
    setMode(viewPeople ? 'dm' : asked?.type === 'private' ? 'dm' : 'channel');
    // The channel picked before stays only if the menu offers it (else it would show none, yet send there).
    const kept = store.subscriptions.value.some((s) => s.stream_id === channel) ? channel : 0;
    setChannel(viewChannel ?? (asked?.type === 'stream' ? asked.to[0]! : kept));
    setTopic(viewTopic ?? (asked?.type === 'stream' ? asked.topic : ''));
    setPeople(viewPeople ?? (asked?.type === 'private' ? asked.to.filter((id) => id !== store.selfId.value) : []));
    setText(draft?.content ?? '');
    setPreview(null);
    setError('');
    setNotice(null);
    setOpened(false);
    saver.reset(draft ?? null);
    if (asked) caretWanted.current = asked.content.length;
  }
  useLayoutEffect(() => {
    openConversation();
    return () => void saver.flush();
  }, [key]);

  // X in a conversation's view: a new direct message here, the conversation's draft kept.
  const elsewhereAsked = composeElsewhere.value;
  useEffect(() => {
    if (elsewhereAsked <= consumedElsewhere) return;
    consumedElsewhere = elsewhereAsked;
    void saver.flush();
    setElsewhere(true);
    setMode('dm');
    setPeople([]);
    setText('');
    setPreview(null);
    setError('');
    setNotice(null);
    setOpened(true);
    saver.reset(null);
  }, [elsewhereAsked]);

  // "Cannot be reached" is stale once the connection is back.
  const connection = store.connection.value;
  useEffect(() => void (connection === 'connected' && setError((e) => (e === NETWORK_ERROR ? '' : e))), [connection]);

  // Save what is typed when the page goes away or is hidden.
  useEffect(() => {
    const save = () => void saver.flush();
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', save);
    return () => {
      window.removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', save);
    };
  }, []);

  const target = (): TypingTarget | null => {
    if (mode === 'channel') return channel ? { kind: 'channel', streamId: channel, topic } : null;
    if (people.length) return { kind: 'dm', to: people };
    return fixedPeople ? { kind: 'dm', to: [store.selfId.value] } : null;
  };

  const addressOf = (s: Address = { mode, channel, topic, people }): DraftAddress => {
    if (s.mode === 'channel') return s.channel ? { type: 'stream', to: [s.channel], topic: s.topic } : { type: '', to: [], topic: '' };
    const to = s.people.length ? s.people : fixedPeople ? [store.selfId.value] : [];
    return to.length ? { type: 'private', to, topic: '' } : { type: '', to: [], topic: '' };
  };

  const ctx: ComposeContext = mode === 'dm' ? { kind: 'dm' } : channel ? { kind: 'channel', streamId: channel, topic } : null;

  /** Replaces the text (autocomplete, inserts), the cursor at `caret`. */
  function replace(next: string, caret: number) {
    setText(next);
    saver.change(addressOf(), next);
    ac.setCaret(caret);
    caretWanted.current = caret;
    if (box.current?.value === next) placeCaret();
  }

  /** Puts the cursor where an insert ended, right after the new text is in the box (before the next key). */
  function placeCaret() {
    const c = caretWanted.current;
    const b = box.current;
    if (c === null || !b || b.value.length < c) return; // (the text it is for is not in the box yet)
    caretWanted.current = null;
    b.focus();
    b.setSelectionRange(c, c);
  }
  useLayoutEffect(placeCaret);

  const ac = useAutocomplete({ text, ctx, replace });

  /** Inserts at the cursor; a block of several lines (or `block`) goes on lines of its own. */
  function insertAtCursor(s: string, block = s.includes('\n')) {
    setPreview(null);
    const cur = textRef.current;
    const b = box.current;
    const start = b ? b.selectionStart : cur.length;
    const end = b ? b.selectionEnd : cur.length;
    const before = cur.slice(0, start);
    const after = cur.slice(end);
    const lead = block && before && !before.endsWith('\n') ? '\n' : '';
    const trail = block && after && !after.startsWith('\n') ? '\n' : '';
    const piece = lead + s + trail;
    replace(before + piece + after, before.length + piece.length);
  }

  // Quote and reply (and anything else): text another part of the app asks to insert.
  const wanted = composeInsert.value;
  useEffect(() => {
    if (!wanted || wanted.seq <= consumedInsert) return;
    consumedInsert = wanted.seq;
    insertAtCursor(wanted.text);
  }, [wanted?.seq]);

  async function send() {
    const content = text.trim();
    if (!content) return;
    const t = target();
    if (!t) {
      setError(mode === 'dm' ? 'Choose who to write to.' : 'Choose a channel.');
      return;
    }
    if (isTooLong(content)) return setError(tooLong());
    if (uploads.length) return setError(UPLOADING);
    // A fractional ID above every real one: shown last, and matched by `local_message_id` when the event comes.
    const localNum = Date.now() + Math.floor(Math.random() * 999 + 1) / 1000;
    const localId = String(localNum);
    const echo: Message = {
      id: localNum,
      type: t.kind === 'dm' ? 'private' : 'stream',
      stream_id: t.kind === 'channel' ? t.streamId : undefined,
      subject: t.kind === 'channel' ? t.topic : '',
      sender_id: store.selfId.value,
      sender_full_name: store.users.value.get(store.selfId.value)?.full_name ?? '',
      avatar_url: store.users.value.get(store.selfId.value)?.avatar_url ?? null,
      display_recipient: t.kind === 'dm' ? [...t.to, store.selfId.value].map((id) => ({ id })) : '',
      content: `<p>${escapeHtml(content)}</p>`,
      timestamp: Math.floor(Date.now() / 1000),
      flags: ['read'],
      reactions: [],
      pending: true,
    };
    const shown = store.feeds.value.get(key)?.foundNewest === true && matches(v, echo, store.selfId.value, mutedForFeed); // as apply-event.ts
    if (shown) updateFeed(key, (f) => ({ ...f, messages: [...f.messages, echo] }));
    setText('');
    setPreview(null);
    setError('');
    setNotice(null);
    stopTyping(t);
    void saver.discard();
    const params: SendParams = {
      type: t.kind === 'dm' ? 'direct' : 'stream',
      to: t.kind === 'dm' ? t.to : t.streamId,
      topic: t.kind === 'channel' ? t.topic : undefined,
      content,
    };
    try {
      await sendWithTimeout(params, localId);
      if (elsewhere) openConversation();
      if (!shown) setNotice(sentElsewhere(t));
    } catch (err) {
      // No answer (not reached, too slow, failing): the message stays in the feed as not sent, with Retry and Cancel.
      if (shown && unanswered(err)) return markUnsent(localId, params);
      updateFeed(key, (f) => ({ ...f, messages: f.messages.filter((m) => m !== echo) }));
      setText(content);
      saver.change(addressOf(), content);
      setError(err instanceof ApiError ? err.message : 'The message was not sent.');
    }
  }

  /** "Schedule": checks there is something to send and somewhere to send it, then asks when. */
  function openSchedule() {
    if (!text.trim()) return setError('Write a message to schedule first.');
    if (!target()) return setError(mode === 'dm' ? 'Choose who to write to.' : 'Choose a channel.');
    if (isTooLong(text)) return setError(tooLong());
    if (uploads.length) return setError(UPLOADING);
    setError('');
    setScheduling(true);
  }

  async function schedule(at: number) {
    const t = target()!;
    const content = text.trim();
    const res = await post<{ scheduled_message_id: number }>('/scheduled_messages', {
      type: t.kind === 'dm' ? 'direct' : 'stream',
      to: t.kind === 'dm' ? t.to : t.streamId,
      topic: t.kind === 'channel' ? t.topic : undefined,
      content,
      scheduled_delivery_timestamp: at,
    });
    setText('');
    setPreview(null);
    stopTyping(t);
    void saver.discard();
    const link = { href: href({ kind: 'scheduled' }), label: 'View scheduled messages' };
    setNotice({ text: `Scheduled for ${whenFmt.format(at * 1000)}.`, link, scheduledId: res.scheduled_message_id, content });
  }

  async function unschedule(id: number, content: string) {
    try {
      await del(`/scheduled_messages/${id}`);
      setNotice(null);
      insertAtCursor(content);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function videoCall() {
    try {
      const res = await post<{ url: string }>('/calls/videocall/create', { room_name: topic || store.realmName.value || 'Hearth call' });
      insertAtCursor(`[Join video call](${res.url})`, true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The call link could not be created.');
    }
  }

  /** A poll or to-do list is a message of its own (the server reads `/poll` at its start), so the box must be empty. */
  function openWidgetDialog(kind: 'poll' | 'todo', button: HTMLButtonElement) {
    if (text.trim()) {
      setError(`${kind === 'poll' ? 'A poll' : 'A to-do list'} is a message of its own: send or clear what is in the message box first.`);
      return;
    }
    setError('');
    setPreview(null);
    widgetButton.current = button;
    setWidgetDialog(kind);
  }

  function closeWidgetDialog(content?: string) {
    setWidgetDialog(null);
    if (content === undefined) return void setTimeout(() => widgetButton.current?.focus());
    // Into the box, ready to send (as Zulip's dialogs do), the caret at its end.
    replace(content, content.length);
    setOpened(true);
  }

  function onKeyDown(e: KeyboardEvent) {
    if (focused && ac.onKeyDown(e)) return;
    const format = formatOfKey(e);
    if (format && box.current) {
      e.preventDefault();
      const b = box.current;
      applyEdit(b, formatEdit(b.value, b.selectionStart, b.selectionEnd, format));
      return;
    }
    // Enter sends unless the person chose Ctrl+Enter (enter_sends false); Ctrl+Enter always sends.
    if (e.key === 'Enter' && !e.isComposing && (e.ctrlKey || e.metaKey || (store.userSettings.value.enter_sends !== false && !e.shiftKey))) {
      e.preventDefault();
      void send();
    }
  }

  async function addFiles(files: FileList | File[]) {
    const limit = store.maxFileUploadMib.value;
    for (const file of Array.from(files)) {
      // Refused here, before a byte is sent (the server would refuse it only once it had it all).
      if (file.size > limit * MiB) {
        setError(`${file.name} is ${mib(file.size)} MiB: files may be up to ${limit} MiB here, so it was not uploaded.`);
        continue;
      }
      setUploads((u) => [...u, { name: file.name, progress: 0 }]);
      try {
        const res = await upload(file, (p) => setUploads((u) => u.map((x) => (x.name === file.name ? { ...x, progress: p } : x))));
        const cur = textRef.current;
        const next = `${cur}${cur && !cur.endsWith('\n') ? '\n' : ''}[${res.filename}](${res.url})\n`;
        setText(next);
        saver.change(addressOf(), next);
      } catch (err) {
        setError(`${file.name}: ${(err as Error).message}`);
      } finally {
        setUploads((u) => u.filter((x) => x.name !== file.name));
      }
    }
  }

  const addFilesNow = useRef(addFiles);
  addFilesNow.current = addFiles;
  useEffect(() => acceptDrops((files) => void addFilesNow.current(files)), []);

  /** The preview and back; with `focus` (Alt+P) the keyboard goes to what is shown next. */
  async function togglePreview(focus = false) {
    if (preview !== null) {
      setPreview(null);
      if (focus) caretWanted.current = caretKept.current ?? text.length;
      return;
    }
    caretKept.current = box.current?.selectionStart ?? null;
    try {
      const res = await post<{ rendered: string }>('/messages/render', { content: text || ' ' });
      setPreview(res.rendered);
      if (focus) setTimeout(() => previewBox.current?.focus());
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const left = store.maxMessageLength.value - lengthOf(text);
  const destination = target();
  // Zulip's "Message #channel > topic": where the text goes, also while the phone's box is one line.
  const placeholder = !destination
    ? 'Message'
    : destination.kind === 'channel'
      ? `Message #${channelName(destination.streamId)}${destination.topic ? ` > ${destination.topic}` : ''}`
      : `Message ${placeOf(destination)}`;

  return (
    <>
      <form
        class={`compose${text ? ' has-text' : ''}${opened ? ' opened' : ''}`}
        onFocusIn={() => setOpened(true)}
        onPointerDown={() => setOpened(true)}
        aria-label="Compose"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
        onKeyDown={(e) => {
          // Alt+P: the preview and back (Zulip's key), from the box or the preview.
          if (e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.code === 'KeyP') {
            e.preventDefault();
            void togglePreview(true);
          }
        }}
      >
        {elsewhere && (
          <p class="compose-elsewhere">
            A new direct message. This conversation’s draft is kept.
            <button
              type="button"
              class="small"
              onClick={() => {
                void saver.flush();
                openConversation();
                box.current?.focus();
              }}
            >
              Back to this conversation
            </button>
          </p>
        )}
        <ComposeTo
          fixedChannel={fixedChannel}
          fixedPeople={fixedPeople}
          mode={mode}
          channel={channel}
          topic={topic}
          people={people}
          onChange={(a) => {
            setMode(a.mode);
            setChannel(a.channel);
            setTopic(a.topic);
            setPeople(a.people);
            if (text) saver.change(addressOf(a), text);
          }}
        />
        {preview !== null ? (
          <div ref={previewBox} tabIndex={-1} class="preview rendered" role="region" aria-label="Preview" dangerouslySetInnerHTML={{ __html: sanitize(preview) }} />
        ) : (
          <div class="message-box">
            {focused && ac.list}
            <textarea
              ref={box}
              aria-label="Message"
              rows={2}
              placeholder={placeholder}
              aria-invalid={left < 0 || undefined}
              aria-describedby={left <= COUNTER_FROM ? 'compose-length' : undefined}
              value={text}
              {...(focused ? ac.boxProps : { 'aria-autocomplete': 'list' as const })}
              onInput={(e) => {
                const next = e.currentTarget.value;
                setText(next);
                ac.track(e);
                saver.change(addressOf(), next);
                const t = target();
                if (t) startTyping(t);
              }}
              onClick={ac.track}
              onKeyUp={(e) => !['ArrowUp', 'ArrowDown', 'Enter', 'Tab', 'Escape'].includes(e.key) && ac.track(e)}
              onFocus={(e) => {
                setFocused(true);
                ac.track(e);
              }}
              onBlur={() => {
                setFocused(false);
                const t = target();
                if (t) stopTyping(t);
              }}
              onKeyDown={onKeyDown}
              onPaste={(e) => {
                if (e.clipboardData?.files.length) {
                  e.preventDefault();
                  void addFiles(e.clipboardData.files);
                }
              }}
            />
          </div>
        )}
        {uploads.map((u) => (
          <p key={u.name} class="upload" role="status">
            Uploading {u.name}… <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
          </p>
        ))}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <ComposeNotice notice={notice} onUndo={(n) => void unschedule(n.scheduledId!, n.content ?? '')} />
        <div class="compose-actions">
          {left <= COUNTER_FROM && (
            <span id="compose-length" class={`length-counter${left < 0 ? ' over' : ''}`}>
              {left < 0 ? `${(-left).toLocaleString()} characters over the limit` : `${left.toLocaleString()} characters left`}
            </span>
          )}
          <label class="button">
            Attach files
            <input type="file" multiple class="visually-hidden" onChange={(e) => e.currentTarget.files && void addFiles(e.currentTarget.files)} />
          </label>
          {store.videoChatProvider.value !== 0 && (
            <button type="button" onClick={() => void videoCall()}>
              Video call
            </button>
          )}
          <button
            type="button"
            class="widget-button"
            aria-haspopup="dialog"
            aria-label="Add a poll"
            title={text.trim() ? 'A poll is a message of its own: empty the message box first' : 'Add a poll'}
            aria-disabled={text.trim() ? true : undefined}
            onClick={(e) => openWidgetDialog('poll', e.currentTarget)}
          >
            Poll
          </button>
          <button
            type="button"
            class="widget-button"
            aria-haspopup="dialog"
            aria-label="Add a to-do list"
            title={text.trim() ? 'A to-do list is a message of its own: empty the message box first' : 'Add a to-do list'}
            aria-disabled={text.trim() ? true : undefined}
            onClick={(e) => openWidgetDialog('todo', e.currentTarget)}
          >
            To-do list
          </button>
          <button type="button" onClick={() => void togglePreview()} aria-pressed={preview !== null} title="Preview (Alt+P)">
            {preview !== null ? 'Edit' : 'Preview'}
          </button>
          <span class="send-group">
            <button type="button" aria-haspopup="dialog" title="Send later" onClick={openSchedule}>
              Schedule
            </button>
            <button type="submit" class="primary">
              Send
            </button>
          </span>
        </div>
      </form>
      {dragging.value && (
        <div class="drop-overlay" role="status">
          <p>
            <strong>Drop files to upload them</strong>
            <span>
              {destination
                ? `They go into your message to ${placeOf(destination)}.`
                : mode === 'dm'
                  ? 'They go into your new message: pick who to write to first.'
                  : 'They go into your new message: pick a channel first.'}
            </span>
            <span class="hint">Up to {store.maxFileUploadMib.value} MiB each.</span>
          </p>
        </div>
      )}
      {widgetDialog === 'poll' && <PollDialog onDone={closeWidgetDialog} onClose={() => closeWidgetDialog()} />}
      {widgetDialog === 'todo' && <TodoDialog onDone={closeWidgetDialog} onClose={() => closeWidgetDialog()} />}
      {scheduling && <ScheduleDialog title="Schedule message" action="Schedule" onPick={schedule} onClose={() => setScheduling(false)} />}
    </>
  );
}
