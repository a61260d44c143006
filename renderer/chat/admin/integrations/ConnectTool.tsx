/**
 * "Connect a tool": pick a tool, a channel and a topic; "Get the URL" finds the tool's
 * incoming-webhook bot (or makes it) and shows the URL to paste into the tool, with Copy,
 * "Send a test message" (`POST /hearth/integrations/test`) and where the URL goes in that tool.
 */
import { useId, useMemo, useRef, useState } from 'preact/hooks';
import type { Channel } from '../../../../server/protocol/channel.js';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { copyText } from '../../ui/clipboard.js';
import { Field } from '../../ui/Field.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { post } from '../api.js';
import { existingBot, type IncomingIntegration, makeBot, type RealmBot } from './integrations-state.js';
import { TOOLS, type Tool, webhookUrl } from './tools.js';

interface Props {
  integrations: readonly IncomingIntegration[];
  bots: readonly RealmBot[];
  channels: readonly Channel[] | null;
  origin: string;
  /** A bot was made: the section's list of bots grows. */
  added: (bot: RealmBot) => void;
}

export function ConnectTool({ integrations, bots, channels, origin, added }: Props) {
  const served = useMemo(() => TOOLS.filter((t) => integrations.some((i) => i.name === t.integration)), [integrations]);
  const [toolName, setToolName] = useState(served[0]?.integration ?? '');
  const [channelId, setChannelId] = useState<number | null>(null);
  const [topic, setTopic] = useState('');
  /** The tool whose bot is shown, and the bot. */
  const [chosen, setChosen] = useState<{ tool: Tool; bot: RealmBot } | null>(null);
  const [notice, setNotice] = useNotice();
  const [making, runMake] = useBusy(setNotice);
  const [copying, runCopy] = useBusy(setNotice);
  const [testing, runTest] = useBusy(setNotice);
  const urlInput = useRef<HTMLInputElement>(null);
  const id = useId();

  const tool = served.find((t) => t.integration === toolName) ?? served[0];
  const channel = channels?.find((c) => c.stream_id === channelId) ?? channels?.[0] ?? null;
  const shown = chosen && tool && chosen.tool.integration === tool.integration && channel ? chosen : null;
  const url = shown && channel ? webhookUrl(origin, shown.tool.integration, shown.bot.api_key, channel.stream_id, topic) : '';

  const getUrl = () =>
    void runMake(async () => {
      if (!tool) return;
      setNotice(null);
      let bot = existingBot(tool, bots);
      if (!bot) {
        bot = await makeBot(tool, bots);
        added(bot);
        setNotice({ kind: 'ok', text: `Made the bot ${bot.full_name}: it posts what ${tool.label} sends.` });
      }
      setChosen({ tool, bot });
    });

  const copy = () =>
    void runCopy(async () => {
      await copyText(url, urlInput.current);
      setNotice({ kind: 'ok', text: 'URL copied.' });
    });

  const test = () =>
    void runTest(async () => {
      if (!shown || !channel) return;
      await post('/hearth/integrations/test', { integration: shown.tool.integration, bot_id: shown.bot.user_id, stream_id: channel.stream_id, topic: topic.trim() });
      setNotice({ kind: 'ok', text: `Test message sent to #${channel.name}${topic.trim() ? ` > ${topic.trim()}` : ''}.` });
    });

  if (!served.length) return <p class="empty">This server offers no integrations.</p>;
  return (
    <section class="card integration-card" aria-labelledby={id}>
      <h2 id={id}>Connect a tool</h2>
      <p class="hint">Tools on your network post into a channel through a webhook URL. Hearth makes a bot for each tool; the URL carries its key.</p>
      <div class="integration-pick">
        <Field label="Tool">
          {(p) => (
            <select {...p} name="tool" value={tool?.integration} onChange={(e) => setToolName(e.currentTarget.value)}>
              {served.map((t) => (
                <option key={t.integration} value={t.integration}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Channel">
          {(p) =>
            channels?.length ? (
              <select {...p} name="channel" value={String(channel?.stream_id ?? '')} onChange={(e) => setChannelId(Number(e.currentTarget.value))}>
                {channels.map((c) => (
                  <option key={c.stream_id} value={String(c.stream_id)}>
                    #{c.name}
                  </option>
                ))}
              </select>
            ) : (
              <select {...p} name="channel" disabled>
                <option>{channels ? 'No channels yet' : 'Loading…'}</option>
              </select>
            )
          }
        </Field>
        <Field label="Topic" hint="Empty: the tool's own topics (the repository, the alert …).">
          {(p) => <input {...p} name="topic" maxLength={60} autocomplete="off" value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />}
        </Field>
      </div>
      <div class="actions">
        <BusyButton busy={making} disabled={!channel} onClick={getUrl}>
          Get the URL
        </BusyButton>
      </div>
      <Notice notice={notice} />
      {shown && (
        <div class="integration-result">
          <Field label={`Webhook URL for ${shown.tool.label}`} hint={`Posts as ${shown.bot.full_name} to #${channel?.name ?? ''}. Anyone with the URL can post as the bot: keep it like a password.`}>
            {(p) => <input {...p} ref={urlInput} class="mono" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />}
          </Field>
          <div class="actions">
            <BusyButton class="secondary" busy={copying} onClick={copy}>
              Copy
            </BusyButton>
            <BusyButton class="secondary" busy={testing} onClick={test}>
              Send a test message
            </BusyButton>
          </div>
          <h3>Where the URL goes in {shown.tool.label}</h3>
          <ul class="integration-where">
            {shown.tool.where.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
