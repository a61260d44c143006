/** The join page's entry point (bundled by server/lib/runtime/web-bundle.ts): the chat's stylesheet and the admin rules. */
import { render } from 'preact';
import '../chat/style.css';
import '../chat/admin/admin.css';
import { Join } from './Join.js';

const app = document.getElementById('app')!;
// The served page's "Loading Hearth…" line goes: this page draws its own.
app.replaceChildren();
render(<Join />, app);
