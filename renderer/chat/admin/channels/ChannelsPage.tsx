/** (Being moved from renderer/channels.ts into the web app.) */
export function ChannelsPage() {
  return <p class="loading">Moving…</p>;
}
