/** Settings: the default channels, which new users are subscribed to (`/default_streams`). */
import { useRef, useState } from 'preact/hooks';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { useNotice } from '../../ui/Notice.js';
import { del, post } from '../api.js';
import { AddForm, ListCard, ListRow } from './ListCard.js';
import type { ChannelList, SettingsState } from './settings-state.js';

export function DefaultChannels({ state, list }: { state: SettingsState; list: ChannelList }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [ids, setIds] = useState<ReadonlySet<number>>(() => new Set(state.realm_default_streams?.map((s) => (typeof s === 'number' ? s : s.stream_id)) ?? []));
  const pick = useRef<HTMLSelectElement>(null);
  const channels = list.channels ?? [];
  const choices = channels.filter((c) => !ids.has(c.stream_id));
  const items = channels
    .filter((c) => ids.has(c.stream_id))
    .map((c) => (
      <ListRow
        key={c.stream_id}
        busy={busy}
        label={`Remove ${c.name} from default channels`}
        action="Remove"
        onAction={() =>
          void run(async () => {
            await del('/default_streams', { stream_id: c.stream_id });
            setIds((now) => new Set([...now].filter((id) => id !== c.stream_id)));
          })
        }
      >
        #{c.name}
      </ListRow>
    ));
  const shown = list.error ? { kind: 'error' as const, text: `Could not load channels: ${list.error}` } : notice;
  return (
    <ListCard title="Default channels" intro="New users are subscribed to these channels." label="Default channels" empty="No default channels." items={items} notice={shown}>
      <AddForm
        busy={busy}
        submit="Add default channel"
        hidden={choices.length === 0}
        onSubmit={() => {
          const id = Number(pick.current?.value);
          if (!id) return;
          void run(async () => {
            await post('/default_streams', { stream_id: id });
            setIds((now) => new Set([...now, id]));
            setNotice({ kind: 'ok', text: 'Default channel added.' });
          });
        }}
      >
        <Field label="Channel">
          {(p) => (
            <select {...p} ref={pick} name="stream_id">
              {choices.map((c) => (
                <option key={c.stream_id} value={c.stream_id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </AddForm>
    </ListCard>
  );
}
