/** A bot's key: Copy, Download zuliprc (naming an address other computers reach) and Regenerate. */
import { useMemo, useRef, useState } from 'preact/hooks';
import type { User } from '../../../../server/protocol/user.js';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { copyText, download } from '../../ui/clipboard.js';
import { Field } from '../../ui/Field.js';
import { FormDialog } from '../../ui/FormDialog.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { httpsSite, zuliprc, zuliprcSite } from '../../settings/zuliprc.js';
import { get, post } from '../api.js';

/** What the status section says of where the server is reached (`GET /hearth/status`), as far as a zuliprc needs. */
interface ServerAddresses {
  lan_urls?: string[];
  https_port?: number | null;
}

/** A new or regenerated key (`POST /bots`, `POST /bots/{id}/api_key/regenerate`). */
export interface BotKey {
  user_id: number;
  api_key: string;
}

/** What the key dialog shows of a bot. */
export type BotCard = Pick<User, 'user_id' | 'full_name' | 'email' | 'delivery_email'>;

/** The zuliprc site for this page (the page's own origin when the LAN URLs cannot be read), over HTTPS when the server has it. */
const siteForZuliprc = (): Promise<{ site: string; https: boolean }> =>
  get<ServerAddresses>('/hearth/status').then(
    (s) => {
      const plain = zuliprcSite(location.origin, Array.isArray(s.lan_urls) ? s.lan_urls : []);
      const port = typeof s.https_port === 'number' ? s.https_port : null;
      return { site: httpsSite(plain, port), https: port !== null };
    },
    () => ({ site: location.origin, https: location.protocol === 'https:' }),
  );

export function BotKeyDialog({ bot, initialKey, changed, onClose }: { bot: BotCard; initialKey: string | null; changed: (key: string) => void; onClose: () => void }) {
  const [key, setKey] = useState(initialKey ?? '');
  const [notice, setNotice] = useNotice();
  const shown = notice ?? (initialKey ? null : { kind: 'info' as const, text: 'This bot belongs to another administrator, so its key is not shown here. Regenerate it to get a new key.' });
  const [copying, runCopy] = useBusy(setNotice);
  const [saving, runSave] = useBusy(setNotice);
  const [renewing, runRenew] = useBusy(setNotice);
  const keyInput = useRef<HTMLInputElement>(null);
  const site = useMemo(siteForZuliprc, []);
  const email = bot.delivery_email ?? bot.email ?? '';

  const copy = () =>
    void runCopy(async () => {
      await copyText(key, keyInput.current);
      setNotice({ kind: 'ok', text: 'API key copied.' });
    });

  const saveRc = () =>
    void runSave(async () => {
      const { site: url, https } = await site;
      download('zuliprc', zuliprc(email, key, url, https ? 'hearth-ca.crt' : undefined));
      if (https) {
        // The authority the zuliprc names, saved beside it.
        const a = document.createElement('a');
        a.href = '/hearth/ca.crt';
        a.download = 'hearth-ca.crt';
        a.click();
        setNotice({ kind: 'ok', text: 'Downloaded zuliprc and hearth-ca.crt: keep them together (cert_bundle= names the certificate).' });
      }
    });

  const regenerate = () => {
    if (!confirm('Regenerate the key? Programs using the old key stop working.')) return;
    void runRenew(async () => {
      const res = await post<BotKey>(`/bots/${bot.user_id}/api_key/regenerate`);
      setKey(res.api_key);
      changed(res.api_key);
      setNotice({ kind: 'ok', text: 'A new key was made; the old one no longer works.' });
    });
  };

  return (
    <FormDialog title={`API key of ${bot.full_name}`} submit="Done" cancel={false} onClose={onClose} onSubmit={async () => true}>
      <p>The bot signs in with its email and this key. Keep it secret, like a password.</p>
      <Field label="Bot email">{(ids) => <input {...ids} readOnly value={email} class="mono" />}</Field>
      <Field label="API key">{(ids) => <input {...ids} ref={keyInput} name="api_key" readOnly value={key} class="mono" spellcheck={false} />}</Field>
      <div class="actions">
        <BusyButton autoFocus disabled={!key} busy={copying} onClick={copy}>
          Copy key
        </BusyButton>
        <BusyButton class="secondary" disabled={!key} busy={saving} onClick={saveRc}>
          Download zuliprc
        </BusyButton>
        <BusyButton class="secondary" busy={renewing} onClick={regenerate}>
          Regenerate key
        </BusyButton>
      </div>
      <Notice notice={shown} />
    </FormDialog>
  );
}
