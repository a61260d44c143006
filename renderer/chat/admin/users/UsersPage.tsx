/** (Being moved from renderer/users.ts into the web app.) */
export function UsersPage() {
  return <p class="loading">Moving…</p>;
}
