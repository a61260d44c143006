/**
 * Settings: STUN/TURN servers for Hearth's own calls (`hearth_call_ice_servers`, administrators,
 * PATCH /realm; the server checks them and its refusal shows in the card's notice). One server a
 * line: its URL (several joined by commas), then for a TURN server its username and credential.
 * None (the default) is all a call on one network needs.
 */
import { useRef } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { patch } from '../api.js';
import { CardForm } from './CardForm.js';
import type { SettingsState } from './settings-state.js';

/** One STUN/TURN server as the server stores it (an RTCIceServer). */
type IceServer = NonNullable<SettingsState['realm_hearth_call_ice_servers']>[number];

/** The card's text for the stored list: one line a server. */
export function serversText(list: readonly IceServer[]): string {
  return list
    .map((s) => [(Array.isArray(s.urls) ? s.urls : [s.urls]).join(','), s.username, s.credential].filter((w): w is string => w !== undefined).join(' '))
    .join('\n');
}

/** The lines as the list PATCH /realm takes; a line of the wrong shape throws with words for the card. */
export function parseServers(text: string): IceServer[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line, i) => {
      const words = line.split(/\s+/);
      if (words.length !== 1 && words.length !== 3) {
        throw new Error(`Line ${i + 1}: write the server's URL, then for a TURN server its username and credential (three words).`);
      }
      const urls = words[0]!.split(',').filter(Boolean);
      const server: IceServer = { urls: urls.length === 1 ? urls[0]! : urls };
      if (words.length === 3) Object.assign(server, { username: words[1], credential: words[2] });
      return server;
    });
}

export function CallServers({ state }: { state: SettingsState }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const text = useRef<HTMLTextAreaElement>(null);
  const stored = state.realm_hearth_call_ice_servers ?? [];
  return (
    <CardForm
      title="Call servers (STUN/TURN)"
      busy={busy}
      onSubmit={() =>
        void run(async () => {
          const servers = parseServers(text.current!.value);
          await patch('/realm', { hearth_call_ice_servers: JSON.stringify(servers) });
          setNotice({
            kind: 'ok',
            text: servers.length ? `Call servers saved (${servers.length}): people joining a call from now on use them.` : "Call servers removed: calls use the browsers' own addresses.",
          });
        })
      }
    >
      <p class="hint">
        Hearth's own calls need no server of this kind when everyone is on the same network: the browsers reach each other directly. Add a STUN
        server (and a TURN server where browsers cannot reach each other at all) when people call across routed networks: other offices, a VPN, a
        guest network.
      </p>
      <Field label="STUN/TURN servers" hint="One a line: stun:host:3478, or turn:host:3478 username credential. Empty for none.">
        {(p) => (
          <textarea
            {...p}
            ref={text}
            name="hearth_call_ice_servers"
            rows={3}
            spellcheck={false}
            autoComplete="off"
            placeholder={'stun:stun.example.lan:3478\nturn:turn.example.lan:3478 hearth s3cret'}
            defaultValue={serversText(stored)}
          />
        )}
      </Field>
      <div class="actions">
        <BusyButton type="submit" busy={busy}>
          Save call servers
        </BusyButton>
      </div>
      <Notice notice={notice} />
    </CardForm>
  );
}
