/**
 * Status, the certificate authority: its fingerprint, what it cannot vouch for, a warning when it is
 * one from before Name Constraints (it may vouch for any website), and an owner's "Replace".
 */
import { useState } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { post } from '../api.js';

export function Trust({ fingerprint: initial, nameConstrained, leftOut }: { fingerprint: string; nameConstrained?: boolean; leftOut: readonly string[] }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [fingerprint, setFingerprint] = useState(initial);
  const [replaced, setReplaced] = useState(false);
  const unlimited = nameConstrained === false && !replaced;

  const replace = () => {
    if (!confirm('Replace the certificate authority? Every device that installed the current one shows a certificate warning until it installs the new one from the trust page.')) return;
    setNotice(null);
    void run(async () => {
      const r = await post<{ ca_fingerprint_sha256: string }>('/hearth/tls/authority', {});
      setFingerprint(String(r.ca_fingerprint_sha256));
      setReplaced(true);
      setNotice({ kind: 'ok', text: 'A new authority is in use. Everyone installs it from the trust page, and removes the old one.' });
    });
  };

  return (
    <section class="card status-card" aria-labelledby="trust-title">
      <h2 id="trust-title">Certificate authority</h2>
      {unlimited && (
        <p class="notice notice-error">
          This authority was made by an earlier version of Hearth and may vouch for any website, not only for this office's server: whoever got hold of its key (from a stolen
          backup of this computer, say) could pass any site off as genuine on every device that trusts it. Replace it, then have everyone install the new one from the trust page.
        </p>
      )}
      <p>People install this server's own authority once per device, then connect over HTTPS. They compare this fingerprint with the one their trust page shows:</p>
      <p>
        <code class="fingerprint" aria-label="SHA-256 fingerprint">
          {fingerprint}
        </code>
      </p>
      <p>
        <a href="/hearth/trust">Open the trust page</a> (downloads and steps for each system).
      </p>
      {leftOut.length > 0 && (
        <p>
          HTTPS does not work by {leftOut.join(', ')}: the authority may not vouch for {leftOut.length === 1 ? 'it' : 'them'}. People use this computer's .local name or a private
          address (a new computer name is covered once the authority is replaced).
        </p>
      )}
      <Notice notice={notice} />
      <div class="actions">
        <BusyButton busy={busy} class={unlimited ? '' : 'secondary'} onClick={replace}>
          Replace the authority…
        </BusyButton>
      </div>
    </section>
  );
}
