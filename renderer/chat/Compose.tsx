/**
 * The compose box under a feed: to the open topic or conversation (a channel and a topic,
 * or people, when the feed is not one conversation). Enter sends, Shift+Enter is a new
 * line; a preview; typing notifications; files by button, drag and drop or paste, with
 * progress. A sent message shows at once (local echo) and is replaced by the server's copy.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, post, upload } from './api.js';
import { queueId } from './events.js';
import { sanitize } from './html.js';
import { keyOf, type FeedView } from './narrow.js';
import { PeoplePicker } from './PeoplePicker.js';
import { store, updateFeed, type Message } from './state.js';
import { startTyping, stopTyping, type TypingTarget } from './typing.js';

interface Upload {
  name: string;
  progress: number;
}

export function Compose({ v }: { v: FeedView }) {
  const fixedTopic = v.kind === 'topic' ? v.topic : null;
  const fixedChannel = v.kind === 'channel' || v.kind === 'topic' ? v.streamId : null;
  const fixedPeople = v.kind === 'dm' ? v.userIds : null;
  const [mode, setMode] = useState<'channel' | 'dm'>(fixedPeople ? 'dm' : 'channel');
  const [channel, setChannel] = useState<number>(fixedChannel ?? store.subscriptions.value[0]?.stream_id ?? 0);
  const [topic, setTopic] = useState(fixedTopic ?? '');
  const [people, setPeople] = useState<number[]>(fixedPeople ?? []);
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    setMode(fixedPeople ? 'dm' : 'channel');
    if (fixedChannel !== null) setChannel(fixedChannel);
    setTopic(fixedTopic ?? '');
    setPeople(fixedPeople ?? []);
    setPreview(null);
    setError('');
  }, [keyOf(v)]);

  const target = (): TypingTarget | null =>
    mode === 'dm' ? (people.length ? { kind: 'dm', to: people } : null) : channel ? { kind: 'channel', streamId: channel, topic } : null;

  async function send() {
    const content = text.trim();
    if (!content) return;
    const t = target();
    if (!t) {
      setError(mode === 'dm' ? 'Choose who to write to.' : 'Choose a channel.');
      return;
    }
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
      content: `<p>${content.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)}</p>`,
      timestamp: Math.floor(Date.now() / 1000),
      flags: ['read'],
      reactions: [],
      pending: true,
    };
    const key = keyOf(v);
    if (store.feeds.value.get(key)?.foundNewest) updateFeed(key, (f) => ({ ...f, messages: [...f.messages, echo] }));
    setText('');
    setPreview(null);
    setError('');
    stopTyping(t);
    try {
      await post('/messages', {
        type: t.kind === 'dm' ? 'direct' : 'stream',
        to: t.kind === 'dm' ? t.to : t.streamId,
        topic: t.kind === 'channel' ? t.topic : undefined,
        content,
        queue_id: queueId(),
        local_id: localId,
      });
    } catch (err) {
      updateFeed(key, (f) => ({ ...f, messages: f.messages.filter((m) => m !== echo) }));
      setText(content);
      setError(err instanceof ApiError ? err.message : 'The message was not sent.');
    }
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  }

  async function addFiles(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      setUploads((u) => [...u, { name: file.name, progress: 0 }]);
      try {
        const res = await upload(file, (p) => setUploads((u) => u.map((x) => (x.name === file.name ? { ...x, progress: p } : x))));
        setText((t) => `${t}${t && !t.endsWith('\n') ? '\n' : ''}[${res.filename}](${res.url})\n`);
      } catch (err) {
        setError(`${file.name}: ${(err as Error).message}`);
      } finally {
        setUploads((u) => u.filter((x) => x.name !== file.name));
      }
    }
  }

  async function togglePreview() {
    if (preview !== null) return setPreview(null);
    try {
      const res = await post<{ rendered: string }>('/messages/render', { content: text || ' ' });
      setPreview(res.rendered);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <form
      class="compose"
      aria-label="Compose"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        if (e.dataTransfer?.files.length) void addFiles(e.dataTransfer.files);
      }}
    >
      <div class="compose-to">
        {fixedChannel === null && fixedPeople === null && (
          <label>
            <span class="visually-hidden">Send to</span>
            <select value={mode} onChange={(e) => setMode(e.currentTarget.value as 'channel' | 'dm')}>
              <option value="channel">Channel</option>
              <option value="dm">Direct message</option>
            </select>
          </label>
        )}
        {mode === 'channel' && fixedChannel === null && (
          <label>
            <span class="visually-hidden">Channel</span>
            <select value={channel} onChange={(e) => setChannel(Number(e.currentTarget.value))}>
              {store.subscriptions.value.map((s) => (
                <option key={s.stream_id} value={s.stream_id}>
                  #{s.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {mode === 'channel' && (
          <label class="topic">
            Topic
            <input value={topic} maxLength={store.maxTopicLength.value} onInput={(e) => setTopic(e.currentTarget.value)} placeholder="general chat" />
          </label>
        )}
        {mode === 'dm' && fixedPeople === null && <PeoplePicker value={people} onChange={setPeople} />}
      </div>
      {preview !== null ? (
        <div class="preview rendered" aria-label="Preview" dangerouslySetInnerHTML={{ __html: sanitize(preview) }} />
      ) : (
        <label class="message-box">
          <span class="visually-hidden">Message</span>
          <textarea
            ref={box}
            aria-label="Message"
            rows={2}
            maxLength={store.maxMessageLength.value}
            placeholder="Message"
            value={text}
            onInput={(e) => {
              setText(e.currentTarget.value);
              const t = target();
              if (t) startTyping(t);
            }}
            onBlur={() => {
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
        </label>
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
      <div class="compose-actions">
        <label class="button">
          Attach files
          <input type="file" multiple class="visually-hidden" onChange={(e) => e.currentTarget.files && void addFiles(e.currentTarget.files)} />
        </label>
        <button type="button" onClick={() => void togglePreview()} aria-pressed={preview !== null}>
          {preview !== null ? 'Edit' : 'Preview'}
        </button>
        <button type="submit" class="primary">
          Send
        </button>
      </div>
    </form>
  );
}
