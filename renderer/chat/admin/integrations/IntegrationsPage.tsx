/**
 * Organization settings: the Integrations section (`#organization/integrations`): connect a tool
 * (ConnectTool.tsx) and, for owners, whether outgoing webhooks may call the server's own computer
 * (LoopbackSetting.tsx). What it shows comes from one register call, the channels from
 * `GET /streams`, the address tools reach from `GET /hearth/status`.
 */
import type { Channel } from '../../../../server/protocol/channel.js';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../../ui/Notice.js';
import { store } from '../../store/state.js';
import { Loading } from '../../ui/TableBox.js';
import { ConnectTool } from './ConnectTool.js';
import { fetchChannels, fetchIntegrations, fetchOrigin, type IntegrationsState, type RealmBot } from './integrations-state.js';
import { LoopbackSetting } from './LoopbackSetting.js';

/** Zulip's owner role: only owners change `hearth_allow_loopback_webhooks`. */
const OWNER = 100;

export function IntegrationsPage() {
  const [state, setState] = useState<IntegrationsState | null>(null);
  const [bots, setBots] = useState<RealmBot[]>([]);
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [origin, setOrigin] = useState(location.origin);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchIntegrations().then(
      (s) => {
        if (!live) return;
        setState(s);
        setBots(s.realm_bots ?? []);
      },
      (err: unknown) => live && setError(errorText(err)),
    );
    fetchChannels().then(
      (list) => live && setChannels(list),
      () => live && setChannels([]),
    );
    void fetchOrigin().then((o) => live && setOrigin(o));
    return () => {
      live = false;
    };
  }, []);
  if (error)
    return (
      <p class="notice notice-error" role="alert">
        Could not load integrations: {error}
      </p>
    );
  if (!state) return <Loading what="integrations" />;
  return (
    <div class="org-integrations">
      <ConnectTool integrations={state.realm_incoming_webhook_bots ?? []} bots={bots} channels={channels} origin={origin} added={(b) => setBots((list) => [...list, b])} />
      {store.users.value.get(store.selfId.value)?.role === OWNER && <LoopbackSetting initial={state.realm_hearth_allow_loopback_webhooks === true} />}
    </div>
  );
}
