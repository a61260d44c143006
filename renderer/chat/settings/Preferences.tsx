/** Settings, Preferences: theme, time format, font size and line spacing, time zone, availability, privacy. */
import { DENSITY } from './theme.js';
import { Check, Choice } from './fields.js';
import { save, setting } from './save.js';

export function Preferences() {
  const size = setting<number>('web_font_size_px', 16);
  const height = setting<number>('web_line_height_percent', 140);
  const zones = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  const tz = setting<string>('timezone', '');
  const browserTz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <>
      <section class="card" aria-labelledby="display-title">
        <h2 id="display-title">Display</h2>
        <Choice name="color_scheme" legend="Theme" options={[[1, 'Automatic (follow the system)'], [2, 'Dark'], [3, 'Light']]} />
        <Choice name="twenty_four_hour_time" legend="Time format" options={[[false, '12-hour (5:30 PM)'], [true, '24-hour (17:30)']]} />
        <fieldset class="choice">
          <legend>Information density</legend>
          <div class="row">
            <button type="button" class="small" aria-pressed={size === 14 && height === 122} onClick={() => save(DENSITY.compact)}>
              Compact
            </button>
            <button type="button" class="small" aria-pressed={size === 16 && height === 140} onClick={() => save(DENSITY.normal)}>
              Default
            </button>
          </div>
          <div class="row">
            <label>
              Font size
              <select value={size} onChange={(e) => save({ web_font_size_px: Number(e.currentTarget.value) })}>
                {[12, 13, 14, 15, 16, 17, 18, 19, 20].map((n) => (
                  <option key={n} value={n}>
                    {n} px{n === 16 ? ' (default)' : ''}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Line spacing
              <select value={height} onChange={(e) => save({ web_line_height_percent: Number(e.currentTarget.value) })}>
                {[122, 130, 140, 150, 158].map((n) => (
                  <option key={n} value={n}>
                    {n}%{n === 140 ? ' (default)' : ''}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </fieldset>
      </section>
      <section class="card" aria-labelledby="tz-title">
        <h2 id="tz-title">Time zone</h2>
        <p class="hint">Others see your local time on your profile card.</p>
        <div class="row">
          <label>
            Time zone
            <select value={tz} onChange={(e) => save({ timezone: e.currentTarget.value })}>
              <option value="">Not set</option>
              {(zones.includes(tz) || !tz ? zones : [tz, ...zones]).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </label>
          {browserTz && browserTz !== tz && (
            <button type="button" class="small" onClick={() => save({ timezone: browserTz })}>
              Use {browserTz}
            </button>
          )}
        </div>
      </section>
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Writing</h2>
        <Choice
          name="enter_sends"
          legend="The Enter key"
          options={[
            [true, 'Enter sends; Shift+Enter adds a line'],
            [false, 'Enter adds a line; Ctrl+Enter sends'],
          ]}
        />
      </section>
      <section class="card" aria-labelledby="reading-title">
        <h2 id="reading-title">Reading</h2>
        <Choice
          name="web_mark_read_on_scroll_policy"
          legend="Automatically mark messages as read"
          options={[
            [1, 'Always'],
            [2, 'Only in conversation views (a topic or a direct message conversation)'],
            [3, 'Never'],
          ]}
        />
      </section>
      <section class="card" aria-labelledby="privacy-title">
        <h2 id="privacy-title">Privacy</h2>
        <Check name="presence_enabled" fallback label="Let others see when I am online" />
        <Check name="allow_private_data_export" label="Let administrators export my private data (direct messages and private channels, when the organization moves to Zulip)" />
      </section>
    </>
  );
}
