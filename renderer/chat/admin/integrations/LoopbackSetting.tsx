/** The organization's `hearth_allow_loopback_webhooks` (owners only): outgoing webhooks to the server's own computer. */
import { useId, useState } from 'preact/hooks';
import { useBusy } from '../../ui/busy.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { patch } from '../api.js';

export function LoopbackSetting({ initial }: { initial: boolean }) {
  const [on, setOn] = useState(initial);
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const id = useId();
  const change = (value: boolean) => {
    // Shown at once; put back if the server refuses.
    setOn(value);
    void run(async () => {
      await patch('/realm', { hearth_allow_loopback_webhooks: value }).catch((err: unknown) => {
        setOn(!value);
        throw err;
      });
      setNotice({ kind: 'ok', text: value ? 'Outgoing webhooks may now call this computer.' : 'Outgoing webhooks may no longer call this computer.' });
    });
  };
  return (
    <section class="card integration-card" aria-labelledby={id} aria-busy={busy ? 'true' : undefined}>
      <h2 id={id}>Outgoing webhooks</h2>
      <div class="field check">
        <input type="checkbox" id={`${id}-loopback`} checked={on} disabled={busy} aria-describedby={`${id}-hint`} onChange={(e) => change(e.currentTarget.checked)} />
        <label for={`${id}-loopback`}>Allow outgoing webhooks to this computer</label>
      </div>
      <p class="hint" id={`${id}-hint`}>
        Off: bots may call services on other computers of the network only, so whoever can make a bot cannot reach services running beside Hearth. Turn it on when a bot's service runs on this computer.
      </p>
      <Notice notice={notice} />
    </section>
  );
}
