/**
 * The compose box under a feed: to the open topic or conversation (a channel and a topic,
 * or people, when the feed is not one conversation). Enter sends (or Ctrl+Enter, as the person
 * chose), Shift+Enter is a new line; the box grows with its text (compose-box.ts); a counter near the
 * server's length limit, and text over it refused, never cut; Zulip's formatting keys; a preview (Alt+P);
 * typing notifications; files by button, paste, or dropped anywhere on the chat (file-drop.ts), those
 * over the organization's size limit refused before any byte is sent; upload progress. A sent message
 * shows at once (local echo) and is replaced by the server's copy.
 * Also: autocomplete for `@` `#` `:` (SuggestionList.tsx), drafts saved to the server while
 * typing and restored when the conversation is reopened (draft-sync.ts), "Schedule" (send
 * later, ScheduleDialog.tsx), a video call link, and text other parts of the app insert
 * (quote and reply, compose-bus.ts).
 * Its pieces live in compose/: the local echo and send parameters (echo.ts), files (uploads.tsx),
 * the preview (preview.ts), scheduling (scheduling.ts), the video call link (video-call.ts), the poll
 * and to-do dialogs (widget-dialogs.tsx), the button row (ComposeActions.tsx), the drop overlay.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, NETWORK_ERROR } from '../store/api.js';
import type { ComposeContext } from './autocomplete.js';
import { useAutocomplete } from './SuggestionList.js';
import { composeElsewhere, composeInsert, takeElsewhere, takeInsert } from './compose-bus.js';
import { ComposeTo, type Address } from './ComposeTo.js';
import { addressOfView, draftFor, DraftSaver, restoreRequest } from './draft-sync.js';
import { sanitize } from '../messages/html.js';
import { keyOf, type FeedView } from '../store/narrow.js';
import { ScheduleDialog } from './ScheduleDialog.js';
import { store } from '../store/state.js';
import { startTyping, stopTyping } from './typing.js';
import { ComposeNotice, sentElsewhere, type Notice } from './ComposeNotice.js';
import { COUNTER_FROM, isTooLong, lengthOf, tooLong, useAutoGrow } from './compose-box.js';
import { dragging } from './file-drop.js';
import { draftAddressOf, targetOf } from './address.js';
import { ComposeActions } from './ComposeActions.js';
import { DropOverlay } from './DropOverlay.js';
import { placeholderOf } from './echo.js';
import { ElsewhereNote } from './ElsewhereNote.js';
import { messageKeySends } from './keys.js';
import { usePreview } from './preview.js';
import { scheduleMessage, unscheduleMessage } from './scheduling.js';
import { deliver, showEcho } from './transmit.js';
import { UPLOADING, UploadProgress, useUploads } from './uploads.js';
import { videoCallLink } from './video-call.js';
import { useWidgetDialog } from './widget-dialogs.js';

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
  const [error, setError] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [focused, setFocused] = useState(false);
  const [opened, setOpened] = useState(false); // used since the conversation opened (phones: style.css)
  const [saver] = useState(() => new DraftSaver());
  const box = useRef<HTMLTextAreaElement>(null);
  const textRef = useRef(text);
  const caretWanted = useRef<number | null>(null);
  textRef.current = text;
  const { preview, setPreview, previewBox, togglePreview } = usePreview(text, box, caretWanted, setError);
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
    if (!takeElsewhere(elsewhereAsked)) return;
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

  const target = () => targetOf({ mode, channel, topic, people }, fixedPeople);
  const addressOf = (a: Address = { mode, channel, topic, people }) => draftAddressOf(a, fixedPeople);

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
    const taken = takeInsert(wanted);
    if (taken !== null) insertAtCursor(taken);
  }, [wanted?.seq]);

  const { uploads, addFiles } = useUploads((link) => {
    const cur = textRef.current;
    const next = `${cur}${cur && !cur.endsWith('\n') ? '\n' : ''}${link}\n`;
    setText(next);
    saver.change(addressOf(), next);
  }, setError);

  // "Add a poll" / "Add a to-do list": their text goes into the box, ready to send, the caret at its end.
  const widgets = useWidgetDialog({
    text,
    onError: setError,
    onOpen: () => setPreview(null),
    onText: (content) => {
      replace(content, content.length);
      setOpened(true);
    },
  });

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
    const echo = showEcho(v, t, content);
    setText('');
    setPreview(null);
    setError('');
    setNotice(null);
    stopTyping(t);
    void saver.discard();
    try {
      if ((await deliver(echo)) === 'unsent') return;
      if (elsewhere) openConversation();
      if (!echo.shown) setNotice(sentElsewhere(t));
    } catch (err) {
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
    const scheduled = await scheduleMessage(t, text.trim(), at);
    setText('');
    setPreview(null);
    stopTyping(t);
    void saver.discard();
    setNotice(scheduled);
  }

  async function unschedule(id: number, content: string) {
    try {
      await unscheduleMessage(id);
      setNotice(null);
      insertAtCursor(content);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function videoCall(voice: boolean) {
    try {
      insertAtCursor(await videoCallLink(target(), voice), true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The call link could not be created.');
    }
  }

  function onKeyDown(e: KeyboardEvent) {
    if (focused && ac.onKeyDown(e)) return;
    if (messageKeySends(e, box.current)) void send();
  }

  const left = store.maxMessageLength.value - lengthOf(text);
  const destination = target();
  const placeholder = placeholderOf(destination);

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
          <ElsewhereNote
            onBack={() => {
              void saver.flush();
              openConversation();
              box.current?.focus();
            }}
          />
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
        <UploadProgress uploads={uploads} />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <ComposeNotice notice={notice} onUndo={(n) => void unschedule(n.scheduledId!, n.content ?? '')} />
        <ComposeActions
          left={left}
          text={text}
          previewing={preview !== null}
          onFiles={(files) => void addFiles(files)}
          onVideoCall={(voice) => void videoCall(voice)}
          onWidget={widgets.openDialog}
          onTogglePreview={() => void togglePreview()}
          onSchedule={openSchedule}
        />
      </form>
      {dragging.value && <DropOverlay destination={destination} mode={mode} />}
      {widgets.dialog}
      {scheduling && <ScheduleDialog title="Schedule message" action="Schedule" onPick={schedule} onClose={() => setScheduling(false)} />}
    </>
  );
}
