/**
 * Channels: every channel of the organization with who can join it and whether new people join it
 * (a default channel: `POST`/`DELETE /default_streams`), and a form to create one (CreateChannel.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Channel } from '../../../../server/protocol/channel.js';
import { sanitize } from '../../messages/html.js';
import { errorText, Notice, type SetNotice, useNotice } from '../../ui/Notice.js';
import { Loading, TableBox } from '../../ui/TableBox.js';
import { del, post } from '../api.js';
import { type ChannelsData, loadChannels } from './load.js';
import { CreateChannel } from './CreateChannel.js';

/** A channel's row: its name and description (the server's rendering, sanitised), who can join, the "New people join" toggle. */
function ChannelRow({ c, isDefault, saved, setNotice }: { c: Channel; isDefault: boolean; saved: (on: boolean) => void; setNotice: SetNotice }) {
  // The change being saved, shown meanwhile (null: none; the toggle shows what the server has).
  const [want, setWant] = useState<boolean | null>(null);

  const toggle = async (on: boolean) => {
    setWant(on);
    try {
      if (on) await post('/default_streams', { stream_id: c.stream_id });
      else await del('/default_streams', { stream_id: c.stream_id });
      saved(on);
      setNotice({ kind: 'ok', text: on ? `New people now join #${c.name}.` : `New people no longer join #${c.name}.` });
    } catch (err) {
      setNotice({ kind: 'error', text: errorText(err) });
    } finally {
      setWant(null);
    }
  };

  return (
    <tr>
      <th scope="row">
        <span class="channel-name">#{c.name}</span>
        {c.description &&
          (c.rendered_description ? (
            <small class="hint" dangerouslySetInnerHTML={{ __html: ` ${sanitize(String(c.rendered_description))}` }} />
          ) : (
            <small class="hint"> {c.description}</small>
          ))}
      </th>
      <td>{c.invite_only ? 'Private: invited people only' : 'Public: anyone in the organization'}</td>
      <td>
        <input
          type="checkbox"
          checked={want ?? isDefault}
          disabled={Boolean(c.invite_only) || want !== null}
          aria-label={`New people join #${c.name}`}
          onChange={(e) => void toggle(e.currentTarget.checked)}
        />
      </td>
    </tr>
  );
}

export function ChannelsPage() {
  const [data, setData] = useState<{ value: ChannelsData } | { error: string } | null>(null);
  const [notice, setNotice] = useNotice();
  useEffect(() => {
    let live = true;
    loadChannels().then(
      (value) => live && setData({ value }),
      (err: unknown) => live && setData({ error: `Could not load channels: ${errorText(err)}` }),
    );
    return () => {
      live = false;
    };
  }, []);

  if (!data) return <Loading what="channels" />;
  if ('error' in data)
    return (
      <p class="notice notice-error" role="alert">
        {data.error}
      </p>
    );
  const { channels, defaults, people } = data.value;
  /** A toggle's change, saved: the list keeps it. */
  const setDefault = (id: number, on: boolean) =>
    setData((d) => {
      if (!d || 'error' in d) return d;
      const next = new Set(d.value.defaults);
      if (on) next.add(id);
      else next.delete(id);
      return { value: { ...d.value, defaults: next } };
    });
  return (
    <>
      <section class="card channels-card" aria-labelledby="channels-title">
        <h2 id="channels-title">All channels</h2>
        <TableBox label="Channels">
          <table class="list channels-list" aria-label="Channels">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Who can join</th>
                <th scope="col">New people join it</th>
              </tr>
            </thead>
            <tbody>
              {channels.map((c) => (
                <ChannelRow key={c.stream_id} c={c} isDefault={defaults.has(c.stream_id)} saved={(on) => setDefault(c.stream_id, on)} setNotice={setNotice} />
              ))}
            </tbody>
          </table>
        </TableBox>
        <Notice notice={notice} />
      </section>
      <CreateChannel people={people} onCreated={async () => setData({ value: await loadChannels() })} />
    </>
  );
}
