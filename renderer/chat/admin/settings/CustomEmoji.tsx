/** Settings: custom emoji (`/realm/emoji`): each active one with its image; add (name + image), deactivate. */
import type { RealmEmoji } from '../../../../server/protocol/realm-emoji.js';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { errorText, useNotice } from '../../ui/Notice.js';
import { del, get, upload } from '../api.js';
import { AddForm, ListCard, ListRow } from './ListCard.js';
import { IMAGE_TYPES, preloadImage } from './settings-state.js';

/** The server's rule for a name (it checks again), said before the upload. */
const EMOJI_NAME = /^[0-9a-z_-]*[0-9a-z]$/;

export function CustomEmoji() {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [emoji, setEmoji] = useState<RealmEmoji[]>([]);
  const name = useRef<HTMLInputElement>(null);
  const file = useRef<HTMLInputElement>(null);
  /** Lists the active emoji; `shown`: the one just added, listed once its image is loaded. */
  const load = useCallback(async (shown?: string) => {
    const res = await get<{ emoji?: Record<string, RealmEmoji> }>('/realm/emoji');
    const active = Object.values(res.emoji ?? {})
      .filter((e) => !e.deactivated)
      .sort((a, b) => String(a.name).localeCompare(b.name));
    const added = active.find((e) => e.name === shown);
    if (added) await preloadImage(String(added.source_url));
    setEmoji(active);
  }, []);
  useEffect(() => {
    load().catch((err: unknown) => setNotice({ kind: 'error', text: `Could not load custom emoji: ${errorText(err)}` }));
  }, [load, setNotice]);
  const items = emoji.map((e) => (
    <ListRow
      key={e.id}
      busy={busy}
      label={`Deactivate :${e.name}:`}
      action="Deactivate"
      onAction={() => {
        if (!confirm(`Deactivate :${e.name}:? Messages that use it keep showing it.`)) return;
        void run(async () => {
          await del(`/realm/emoji/${encodeURIComponent(e.name)}`);
          setEmoji((now) => now.filter((x) => x.id !== e.id));
        });
      }}
    >
      <img class="emoji-preview" src={String(e.source_url)} alt="" width={24} height={24} /> :{e.name}:
    </ListRow>
  ));
  return (
    <ListCard
      title="Custom emoji"
      intro="Emoji everyone can use in messages, reactions and statuses."
      label="Custom emoji"
      empty="No custom emoji."
      listClass="emoji-list"
      items={items}
      notice={notice}
    >
      <AddForm
        busy={busy}
        submit="Add emoji"
        onSubmit={() => {
          const chosen = file.current?.files?.[0];
          if (!chosen) return;
          const added = name.current!.value.trim().replace(/ /g, '_');
          if (!EMOJI_NAME.test(added)) {
            setNotice({ kind: 'error', text: 'Emoji names use lower-case letters, digits, - and _, and end with a letter or digit.' });
            return;
          }
          void run(async () => {
            const data = new FormData();
            data.append('file', chosen);
            await upload(`/realm/emoji/${encodeURIComponent(added)}`, data);
            name.current!.value = '';
            file.current!.value = '';
            await load(added);
            setNotice({ kind: 'ok', text: `:${added}: added.` });
          });
        }}
      >
        <Field label="Emoji name" hint="Lower-case letters, digits, - and _.">
          {(p) => <input {...p} ref={name} name="emoji_name" required maxLength={60} placeholder="party_parrot" />}
        </Field>
        <Field label="Image" hint="PNG, JPEG, GIF or WebP, up to 5 MiB; small and square works best.">
          {(p) => <input {...p} ref={file} type="file" name="emoji_file" accept={IMAGE_TYPES} required />}
        </Field>
      </AddForm>
    </ListCard>
  );
}
