/** (Being moved from renderer/status.ts into the web app.) */
export function StatusPage() {
  return <p class="loading">Moving…</p>;
}
