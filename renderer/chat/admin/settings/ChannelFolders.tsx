/** Settings: channel folders (`/channel_folders`): listed in their order with their description, created, archived. */
import type { ChannelFolder } from '../../../../server/protocol/channel.js';
import { useRef, useState } from 'preact/hooks';
import { sanitizeOwnImages } from '../../messages/html.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { useNotice } from '../../ui/Notice.js';
import { get, patch, post } from '../api.js';
import { AddForm, ListCard, ListRow } from './ListCard.js';
import type { SettingsState } from './settings-state.js';

export function ChannelFolders({ state }: { state: SettingsState }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [folders, setFolders] = useState<ChannelFolder[]>(state.channel_folders ?? []);
  const name = useRef<HTMLInputElement>(null);
  const description = useRef<HTMLInputElement>(null);
  const items = folders
    .slice()
    .sort((a, b) => a.order - b.order)
    .map((f) => {
      const action = f.is_archived ? 'Unarchive' : 'Archive';
      return (
        <ListRow
          key={f.id}
          rowClass={f.is_archived ? 'inactive' : undefined}
          busy={busy}
          label={`${action} the folder ${f.name}`}
          action={action}
          onAction={() =>
            void run(async () => {
              await patch(`/channel_folders/${f.id}`, { is_archived: !f.is_archived });
              setFolders((now) => now.map((x) => (x.id === f.id ? { ...x, is_archived: !f.is_archived } : x)));
            })
          }
        >
          {f.name}
          {f.is_archived ? ' (archived)' : ''}
          {/* Server HTML (the rendered description), only through DOMPurify. */}
          <div class="folder-description" dangerouslySetInnerHTML={{ __html: f.rendered_description ? sanitizeOwnImages(f.rendered_description) : '' }} />
        </ListRow>
      );
    });
  return (
    <ListCard title="Channel folders" intro="Folders group channels in the apps’ channel list." label="Channel folders" empty="No channel folders." items={items} notice={notice}>
      <AddForm
        busy={busy}
        submit="Create folder"
        onSubmit={() => {
          const n = name.current!;
          const d = description.current!;
          void run(async () => {
            await post('/channel_folders/create', { name: n.value, description: d.value });
            const res = await get<{ channel_folders?: ChannelFolder[] }>('/channel_folders', { include_archived: true });
            setFolders((now) => res.channel_folders ?? now);
            n.value = d.value = '';
            setNotice({ kind: 'ok', text: 'Folder created.' });
          });
        }}
      >
        <Field label="Folder name">{(p) => <input {...p} ref={name} name="name" required maxLength={60} />}</Field>
        <Field label="Folder description">{(p) => <input {...p} ref={description} name="description" maxLength={200} />}</Field>
      </AddForm>
    </ListCard>
  );
}
